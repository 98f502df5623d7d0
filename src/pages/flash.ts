import { createHash } from "node:crypto";

/**
 * Carries a message across the redirect after POST (a new key's secret, a revocation), so that
 * it is shown exactly once and a reload repeats a harmless GET. The message travels in a
 * short-lived HttpOnly cookie, encrypted (AES-GCM) under a key derived from the browser's own
 * session id, so it is useless without that session. It carries a random id that the POST
 * also writes on the session row; the GET that shows it clears that id with a conditional
 * UPDATE, so the same cookie replayed (within its 120 s) shows nothing, on any instance.
 */
export const FLASH_COOKIE = "orgit_new_key";
export const FLASH_PATH = "/settings/api-keys";
export const FLASH_MAX_AGE_S = 120;

interface FlashBase {
  /** random; matches the session row's flash id until shown */
  id: string;
  keyId: string;
  name: string;
  organizationId: string;
}
export type NewKeyFlash = FlashBase & { kind: "created"; secret: string };
export type RevokedFlash = FlashBase & { kind: "revoked" };
export type Flash = NewKeyFlash | RevokedFlash;

function keyFor(sessionToken: string) {
  const raw = createHash("sha256").update(`flash:${sessionToken}`).digest();
  return crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function sealFlash(sessionToken: string, flash: Flash): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(flash));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await keyFor(sessionToken),
    plain,
  );
  return Buffer.concat([iv, new Uint8Array(sealed)]).toString("base64url");
}

export async function openFlash(
  sessionToken: string,
  value: string | undefined,
): Promise<Flash | null> {
  if (!value) return null;
  try {
    const bytes = Buffer.from(value, "base64url");
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(0, 12) },
      await keyFor(sessionToken),
      bytes.subarray(12),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as Flash;
  } catch {
    return null; // another session's cookie, or tampered: show nothing
  }
}
