import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { invitations, userPasswords, users } from "../../db/schema/index.ts";

/** Named data access of the settings screen's accounts: passwords, invitations (sign-in failures: src/db/queries/sign-in-failures.ts). */

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
