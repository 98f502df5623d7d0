import { sha256Hex } from "../../auth/keys.ts";
import type { Database } from "../../db/client.ts";
import { putChallenge, takeChallenge } from "./queries.ts";

/**
 * The relying party, all from PUBLIC_BASE_URL: its host is the RP ID the passkeys are bound
 * to, its origin the only one whose ceremonies are accepted (docs/security.md, passkeys).
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingParty(publicBaseUrl: string): RelyingParty {
  const url = new URL(publicBaseUrl);
  return { id: url.hostname, name: "orgit", origin: url.origin };
}

/** How long a ceremony's challenge may be answered; the browser's prompt gives up sooner. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const PROMPT_TIMEOUT_MS = 120_000;

export type Purpose = "registration" | "authentication";

/** The WebAuthn user handle: the user's id, never their email (it is stored on the device). */
export const userHandle = (userId: string) => new TextEncoder().encode(userId);

/** A JSON object from the browser's form field, or null. */
export function parseObject<T>(json: string): T | null {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as T) : null;
  } catch {
    return null;
  }
}

const binding = (purpose: Purpose, value: string) => sha256Hex(`webauthn:${purpose}:${value}`);

/**
 * Challenges kept on the server, bound to a session (adding a passkey) or to a sign-in
 * attempt's cookie (signing in); taken at most once, within CHALLENGE_TTL_MS.
 */
export class Ceremonies {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  async open(purpose: Purpose, bindTo: string, userId: string | null, challenge: string) {
    const now = this.now();
    await putChallenge(this.database.db, {
      bindingHash: binding(purpose, bindTo),
      purpose,
      userId,
      challenge,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    });
  }

  /** The open ceremony of this binding, taken out (single use); null if none or stale. */
  async take(purpose: Purpose, bindTo: string) {
    const row = await takeChallenge(this.database.db, binding(purpose, bindTo), purpose);
    if (!row || row.expiresAt.getTime() <= this.now().getTime()) return null;
    return row;
  }
}
