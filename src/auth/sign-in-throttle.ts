import type { Database } from "../db/client.ts";
import {
  deleteAccountFailures,
  deleteAttempt,
  reserveAttempt,
} from "../db/queries/sign-in-failures.ts";
import { sha256Hex } from "./keys.ts";

/** docs/decisions.md §10: 10 failures per account or 30 per IP within 15 minutes → 429. */
export const THROTTLE = { windowMs: 15 * 60_000, perAccount: 10, perIp: 30 } as const;

export type Reservation =
  | { kind: "reserved"; id: string }
  | { kind: "throttled"; retryAfterS: number };

/** The account a password attempt counts against: the email as typed, folded. */
export const accountOfEmail = (email: string) => email.trim().normalize("NFKC").toLowerCase();

/**
 * The account a passkey attempt counts against: its owner's, as for their password, when the
 * credential is registered; otherwise one of its own (never an email: it has no `@`), so an
 * unknown passkey draws only from its address's limit in effect.
 */
export const accountOfPasskey = (owner: { email: string } | undefined, credentialId: string) =>
  owner ? accountOfEmail(owner.email) : `passkey:${sha256Hex(credentialId)}`;

/**
 * Sign-in attempts (passwords and passkeys alike) counted in the database, so every instance
 * refuses the same guesser. The account is the email as typed: unknown emails are throttled
 * exactly like known ones, or the 429 itself would tell which emails exist. An attempt is
 * counted (reserved) before its password or signature is checked, atomically, so a parallel
 * burst gets no more checks than the limit; a successful sign-in then clears the account's
 * count.
 */
export class SignInThrottle {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  async reserve(account: string, ip: string): Promise<Reservation> {
    const at = this.now();
    const since = new Date(at.getTime() - THROTTLE.windowMs);
    const values = { email: account, ip, at };
    const result = await reserveAttempt(this.database.db, values, since, THROTTLE);
    return "id" in result
      ? { kind: "reserved", id: result.id }
      : { kind: "throttled", retryAfterS: result.retryAfterS };
  }

  /** The attempt was never checked (the hash queue was full): it does not count. */
  async release(id: string): Promise<void> {
    await deleteAttempt(this.database.db, id);
  }

  /** A successful sign-in clears the account's failures (not the IP's: others share it). */
  async clearAccount(account: string): Promise<void> {
    await deleteAccountFailures(this.database.db, account);
  }
}
