import { and, eq, gt, lt, or, sql } from "drizzle-orm";
import type { Db, Executor } from "../client.ts";
import { signInFailures } from "../schema/index.ts";

/** Named data access of the sign-in throttle (src/auth/sign-in-throttle.ts). */

/** advisory lock classes: one per account, one per address (two-key pg_advisory_xact_lock) */
const ACCOUNT_LOCK = 0x5167_0001;
const IP_LOCK = 0x5167_0002;

/**
 * Counts the account's and the address's attempts since `since` and, when both are under
 * their limit, records this attempt, all under transaction-scoped advisory locks on the
 * account and the address: parallel attempts (from any instance) are counted one after the
 * other, so no more than the limit ever pass. Locks are always taken account first, then
 * address, so two attempts cannot wait on each other. Returns the new row's id, or when
 * refused the seconds until the oldest counted attempt leaves the window.
 */
export async function reserveAttempt(
  db: Db,
  values: { email: string; ip: string; at: Date },
  since: Date,
  limits: { perAccount: number; perIp: number; windowMs: number },
): Promise<{ id: string } | { retryAfterS: number }> {
  const { email, ip, at } = values;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${ACCOUNT_LOCK}, hashtext(${email}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(${IP_LOCK}, hashtext(${ip}))`);
    const [row] = await tx
      .select({
        account: sql`count(*) filter (where ${signInFailures.email} = ${email})`.mapWith(Number),
        ip: sql`count(*) filter (where ${signInFailures.ip} = ${ip})`.mapWith(Number),
        oldestAccount: sql<Date | null>`min(${signInFailures.at}) filter (where ${signInFailures.email} = ${email})`,
        oldestIp: sql<Date | null>`min(${signInFailures.at}) filter (where ${signInFailures.ip} = ${ip})`,
      })
      .from(signInFailures)
      .where(
        and(
          gt(signInFailures.at, since),
          or(eq(signInFailures.email, email), eq(signInFailures.ip, ip)),
        ),
      );
    const overAccount = (row?.account ?? 0) >= limits.perAccount;
    const overIp = (row?.ip ?? 0) >= limits.perIp;
    if (overAccount || overIp) {
      const oldest = [overAccount ? row?.oldestAccount : null, overIp ? row?.oldestIp : null]
        .filter((d) => d != null)
        .map((d) => new Date(d as Date).getTime());
      const freeAt = Math.max(...oldest) + limits.windowMs;
      return { retryAfterS: Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000)) };
    }
    // rows leave once their window has passed (the table holds 15 minutes of attempts)
    await tx.delete(signInFailures).where(lt(signInFailures.at, since));
    const [inserted] = await tx
      .insert(signInFailures)
      .values(values)
      .returning({ id: signInFailures.id });
    return { id: (inserted as { id: string }).id };
  });
}

/** Forgets an attempt whose password was never checked (the hash queue was full). */
export async function deleteAttempt(db: Executor, id: string) {
  await db.delete(signInFailures).where(eq(signInFailures.id, id));
}

export async function deleteAccountFailures(db: Executor, email: string) {
  await db.delete(signInFailures).where(eq(signInFailures.email, email));
}
