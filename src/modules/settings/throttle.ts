import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { signInFailures } from "../../db/schema/index.ts";

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
    const since = this.since();
    const [row] = await this.database.db
      .select({
        account: sql`count(*) filter (where ${signInFailures.email} = ${email})`.mapWith(Number),
        ip: sql`count(*) filter (where ${signInFailures.ip} = ${ip})`.mapWith(Number),
      })
      .from(signInFailures)
      .where(
        and(
          gt(signInFailures.at, since),
          or(eq(signInFailures.email, email), eq(signInFailures.ip, ip)),
        ),
      );
    return (row?.account ?? 0) >= THROTTLE.perAccount || (row?.ip ?? 0) >= THROTTLE.perIp;
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    const db = this.database.db;
    const since = this.since();
    // rows leave once their window has passed (the table holds 15 minutes of failures)
    await db.delete(signInFailures).where(lt(signInFailures.at, since));
    await db.insert(signInFailures).values({ email, ip, at: this.now() });
  }

  /** A successful sign-in clears the account's failures (not the IP's: others share it). */
  async clearAccount(email: string): Promise<void> {
    await this.database.db.delete(signInFailures).where(eq(signInFailures.email, email));
  }
}
