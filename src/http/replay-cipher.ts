import { deriveAesKey, isSealed, open, type SealedValue, seal } from "../auth/cipher.ts";

/**
 * Encryption of the answers kept for `Idempotency-Key` replays. An answer can carry a secret
 * shown once (a webhook's `whsec_` signing secret, bulk-create install links), so it is stored
 * only as AES-256-GCM ciphertext (src/auth/cipher.ts) under a key derived from the caller's own
 * API key secret — which the service never stores, only its SHA-256. Whoever reads the
 * database (a backup, a replica, an operator) cannot read the answers; the caller presenting
 * the same API key can have them replayed.
 */

const INFO = "orgit idempotency replay v1";

/** What the `response_body` column holds. */
export type SealedAnswer = SealedValue;

export class ReplayUnreadableError extends Error {}

/** The key for one API key: salt = the key's id, input = its secret. */
export const replayKey = (apiKeySecret: string, apiKeyId: string): Promise<CryptoKey> =>
  deriveAesKey(apiKeySecret, apiKeyId, INFO);

/**
 * Encrypts a JSON answer. `context` (API key id, Idempotency-Key, request hash) is bound as
 * additional data, so a sealed answer copied onto another row does not open there.
 */
export const sealAnswer = (key: CryptoKey, body: unknown, context: string) =>
  seal(key, body, context);

export { isSealed };

/** Decrypts what sealAnswer made; ReplayUnreadableError for a wrong key, context or a damaged row. */
export async function openAnswer(
  key: CryptoKey,
  sealed: SealedAnswer,
  context: string,
): Promise<unknown> {
  try {
    return await open(key, sealed, context);
  } catch {
    throw new ReplayUnreadableError("The stored answer cannot be decrypted with this key");
  }
}
