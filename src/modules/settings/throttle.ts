import type { Database } from "../../db/client.ts";
import { countFailures, deleteAccountFailures, recordFailure } from "./account-queries.ts";

/** docs/decisions.md §10: 10 failures per account or 30 per IP within 15 minutes → 429. */
export const THROTTLE = { windowMs: 15 * 60_000, perAccount: 10, perIp: 30 } as const;

/**
 * Failed sign-ins counted in the database, so every instance refuses the same guesser. The
 * account is the email as typed: unknown emails are throttled exactly like known ones, or the
 * 429 itself would tell which emails exist.
 */
export class SignInThrottle {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  private since() {
    return new Date(this.now().getTime() - THROTTLE.windowMs);
  }

  async isThrottled(email: string, ip: string): Promise<boolean> {
    const failures = await countFailures(this.database.db, email, ip, this.since());
    return failures.account >= THROTTLE.perAccount || failures.ip >= THROTTLE.perIp;
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    // rows leave once their window has passed (the table holds 15 minutes of failures)
    await recordFailure(this.database.db, { email, ip, at: this.now() }, this.since());
  }

  /** A successful sign-in clears the account's failures (not the IP's: others share it). */
  async clearAccount(email: string): Promise<void> {
    await deleteAccountFailures(this.database.db, email);
  }
}
