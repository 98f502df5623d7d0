/** What the passkey service answers the pages (src/pages/security.ts, passkey-sign-in.ts). */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type AddResult =
  | { kind: "ok"; passkey: PasskeyView }
  | { kind: "bad-name" | "expired" | "invalid" | "duplicate" | "too-many" };
export type PasskeySignIn =
  | { kind: "ok"; token: string; userId: string }
  | { kind: "expired" | "unknown" | "invalid" | "replayed" }
  | { kind: "throttled"; retryAfterS: number };
/** A verification's outcome; the passkey's owner once a registered passkey was named. */
export type Verified =
  | { kind: "ok" | "invalid" | "replayed"; userId: string; passkeyId: string }
  | { kind: "expired" | "unknown" | "invalid" }
  | { kind: "throttled"; retryAfterS: number };
