import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Password hashing with scrypt at OWASP's parameters (Password Storage Cheat Sheet: N=2^17,
 * r=8, p=1; 128 MiB and a few hundred milliseconds per hash). node:crypto's scrypt runs off the
 * event loop in both Bun and Deno, so one portable implementation serves both entry points and
 * a hash written by one runtime verifies in the other. The parameters are stored with each
 * hash, so raising them later still verifies older hashes.
 */
export const PASSWORD_MIN_LENGTH = 12;
/** longer inputs are refused: hashing cost must not be an attacker's choice */
export const PASSWORD_MAX_LENGTH = 256;

interface Params {
  N: number;
  r: number;
  p: number;
}
const OWASP: Params = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

/**
 * Each hash holds 128 MiB while it runs: a burst of sign-in POSTs must queue rather than
 * multiply that (the throttling only counts attempts once they are checked).
 */
const MAX_CONCURRENT = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  while (running >= MAX_CONCURRENT) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below OWASP's N
    const maxmem = 256 * params.N * params.r;
    return await new Promise((resolve, reject) => {
      scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { ...params, maxmem }, (error, key) =>
        error ? reject(error) : resolve(key),
      );
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, OWASP);
  const { N, r, p } = OWASP;
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let decoy: Promise<string> | undefined;

/**
 * Spends the time of one verification for an email without a password, so that a wrong email
 * and a wrong password cannot be told apart by how long the answer takes.
 */
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword("decoy password, never valid");
  await verifyPassword(password, await decoy);
  return false;
}
