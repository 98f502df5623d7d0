import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { invitations, signInFailures, userPasswords, users } from "../../db/schema/index.ts";

/** Named data access of the settings screen's accounts: passwords, invitations, sign-in failures. */

export async function upsertPassword(
  db: Executor,
  values: { userId: string; hash: string; updatedAt: Date },
) {
  const { hash, updatedAt } = values;
  await db
    .insert(userPasswords)
    .values(values)
    .onConflictDoUpdate({ target: userPasswords.userId, set: { hash, updatedAt } });
}

/** The user and their password hash (null when none is set) for an email, case-insensitive. */
export async function passwordByEmail(db: Executor, email: string) {
  const [row] = await db
    .select({ userId: users.id, hash: userPasswords.hash })
    .from(users)
    .leftJoin(userPasswords, eq(userPasswords.userId, users.id))
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  return row;
}

export async function deleteOpenInvitations(db: Executor, userId: string) {
  await db
    .delete(invitations)
    .where(and(eq(invitations.userId, userId), isNull(invitations.usedAt)));
}

export async function insertInvitation(
  db: Executor,
  values: { userId: string; tokenHash: string; expiresAt: Date; createdAt: Date },
) {
  await db.insert(invitations).values(values);
}

/** The invitation with this token hash and its user's email and first name. */
export async function findInvitation(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      usedAt: invitations.usedAt,
      expiresAt: invitations.expiresAt,
      email: users.email,
      firstName: users.firstName,
    })
    .from(invitations)
    .innerJoin(users, eq(users.id, invitations.userId))
    .where(eq(invitations.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Marks an unused, unexpired invitation used; undefined when it was neither. */
export async function markInvitationUsed(db: Executor, tokenHash: string, now: Date) {
  const [used] = await db
    .update(invitations)
    .set({ usedAt: now })
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        isNull(invitations.usedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .returning({ userId: invitations.userId });
  return used;
}

/** Failures since the given time for the account and for the IP, in one statement. */
export async function countFailures(db: Executor, email: string, ip: string, since: Date) {
  const [row] = await db
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
  return { account: row?.account ?? 0, ip: row?.ip ?? 0 };
}

/** Forgets old failures, then records this one. */
export async function recordFailure(
  db: Executor,
  values: { email: string; ip: string; at: Date },
  forgetBefore: Date,
) {
  await db.delete(signInFailures).where(lt(signInFailures.at, forgetBefore));
  await db.insert(signInFailures).values(values);
}

export async function deleteAccountFailures(db: Executor, email: string) {
  await db.delete(signInFailures).where(eq(signInFailures.email, email));
}
