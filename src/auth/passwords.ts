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

/** scrypt's cost parameters, stored with each hash */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
/**
 * What every new hash uses. Only code can choose others (`createApp`'s `passwordHashing`, which
 * the test harness lowers so that its hundreds of sign-ins do not each spend 128 MiB and most
 * of a second: docs/testing.md); no setting or input reaches them.
 */
export const OWASP_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** Thrown when the hash queue is full: the caller answers 503 with Retry-After. */
export class PasswordQueueFull extends Error {
  constructor() {
    super("password hash queue full");
  }
}

/**
 * Each hash holds 128 MiB while it runs: a burst of sign-in POSTs must queue rather than
 * multiply that, and the queue itself is bounded so that a burst from many addresses is
 * refused at once instead of making every sign-in wait behind it (docs/security.md).
 */
export class HashQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrent: number,
    readonly maxWaiting: number,
  ) {}

  /** tasks running plus waiting at most; one more is refused */
  get capacity(): number {
    return this.concurrent + this.maxWaiting;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrent) this.running++;
    else if (this.waiting.length >= this.maxWaiting) throw new PasswordQueueFull();
    // a finishing task hands its slot to the first waiter: `running` stays as it is
    else await new Promise<void>((go) => this.waiting.push(go));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * 4 hashes at once (512 MiB) and 28 more waiting: one address's whole allowance (30 attempts
 * per 15 minutes) fits, so a single guesser meets the 429 of the throttle; only a burst from
 * many addresses at once meets the 503, and a sign-in waits at most 8 hash times.
 */
export const passwordQueue = new HashQueue(4, 28);

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return passwordQueue.run(
    () =>
      new Promise((resolve, reject) => {
        // scrypt needs 128 * N * r bytes; Node's default cap (32 MiB) is below OWASP's N
        const maxmem = 256 * params.N * params.r;
        scrypt(password.normalize("NFC"), salt, KEY_LENGTH, { ...params, maxmem }, (error, key) =>
          error ? reject(error) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(
  password: string,
  params: ScryptParams = OWASP_SCRYPT,
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  const { N, r, p } = params;
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

/** one decoy hash per set of parameters (the service uses one set) */
const decoys = new Map<ScryptParams, Promise<string>>();

/**
 * Spends the time of one verification for an email without a password, so that a wrong email
 * and a wrong password cannot be told apart by how long the answer takes. `params` are the
 * ones the service hashes with, so the decoy costs what a real check costs.
 */
export async function verifyDecoy(
  password: string,
  params: ScryptParams = OWASP_SCRYPT,
): Promise<false> {
  let decoy = decoys.get(params);
  if (!decoy) {
    decoy = hashPassword("decoy password, never valid", params);
    decoys.set(params, decoy);
  }
  await verifyPassword(password, await decoy);
  return false;
}
