/**
 * Encryption of the answers kept for `Idempotency-Key` replays. An answer can carry a secret
 * shown once (a webhook's `whsec_` signing secret, bulk-create install links), so it is stored
 * only as AES-256-GCM ciphertext under a key derived (HKDF-SHA-256) from the caller's own API
 * key secret — which the service never stores, only its SHA-256. Whoever reads the database
 * (a backup, a replica, an operator) cannot read the answers; the caller presenting the same
 * API key can have them replayed. Web Crypto only, so the same code runs under Bun and Deno.
 */

const INFO = new TextEncoder().encode("orgit idempotency replay v1");

/** What the `response_body` column holds: version, nonce and ciphertext (with its tag), base64. */
export interface SealedAnswer {
  v: 1;
  iv: string;
  data: string;
}

export class ReplayUnreadableError extends Error {}

/** The key for one API key: salt = the key's id, input = its secret. */
export async function replayKey(apiKeySecret: string, apiKeyId: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(apiKeySecret),
    "HKDF",
    false,
    ["deriveKey"],
  );
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode(apiKeyId), info: INFO },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/**
 * Encrypts a JSON answer. `context` (API key id, Idempotency-Key, request hash) is bound as
 * additional data, so a sealed answer copied onto another row does not open there.
 */
export async function sealAnswer(
  key: CryptoKey,
  body: unknown,
  context: string,
): Promise<SealedAnswer> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(body ?? null));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(context) },
    key,
    plain,
  );
  return { v: 1, iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}

export const isSealed = (value: unknown): value is SealedAnswer =>
  typeof value === "object" &&
  value !== null &&
  (value as SealedAnswer).v === 1 &&
  typeof (value as SealedAnswer).iv === "string" &&
  typeof (value as SealedAnswer).data === "string";

/** Decrypts what sealAnswer made; ReplayUnreadableError for a wrong key, context or a damaged row. */
export async function openAnswer(
  key: CryptoKey,
  sealed: SealedAnswer,
  context: string,
): Promise<unknown> {
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
    throw new ReplayUnreadableError("The stored answer cannot be decrypted with this key");
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
