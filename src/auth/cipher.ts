/**
 * The service's one symmetric cipher: AES-256-GCM under a key derived with HKDF-SHA-256 from a
 * secret the database does not hold, with a context bound as additional data so that a value
 * copied onto another row does not open there. Web Crypto only, so the same code runs under
 * Bun and Deno. Used for `Idempotency-Key` replays (src/http/replay-cipher.ts) and webhook
 * signing secrets at rest (src/outbox/secret-box.ts).
 */

/** What a sealed value is stored as: version, nonce and ciphertext (with its tag), base64. */
export interface SealedValue {
  v: 1;
  iv: string;
  data: string;
}

export class UnreadableError extends Error {}

/** An AES-256-GCM key from `secret`, for one purpose (`info`) and one owner (`salt`). */
export async function deriveAesKey(secret: string, salt: string, info: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    "HKDF",
    false,
    ["deriveKey"],
  );
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new TextEncoder().encode(salt),
      info: new TextEncoder().encode(info),
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** Encrypts a JSON value, `context` bound as additional data. */
export async function seal(key: CryptoKey, value: unknown, context: string): Promise<SealedValue> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(value ?? null));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    plain,
  );
  return { v: 1, iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}

export const isSealed = (value: unknown): value is SealedValue =>
  typeof value === "object" &&
  value !== null &&
  (value as SealedValue).v === 1 &&
  typeof (value as SealedValue).iv === "string" &&
  typeof (value as SealedValue).data === "string";

/** Decrypts what `seal` made; UnreadableError for a wrong key or context, or a damaged value. */
export async function open(key: CryptoKey, sealed: SealedValue, context: string): Promise<unknown> {
  try {
    const plain = await crypto.subtle.decrypt(
      {
        name: "AES-GCM",
        iv: fromBase64(sealed.iv),
        additionalData: new TextEncoder().encode(context),
      },
      key,
      fromBase64(sealed.data),
    );
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw new UnreadableError("The stored value cannot be decrypted with this key");
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
