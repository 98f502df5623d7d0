import { and, asc, eq, getTableColumns, inArray, isNotNull, lt, or } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import {
  memberships,
  organizations,
  passkeyCredentials,
  roles,
  users,
  webauthnChallenges,
} from "../../db/schema/index.ts";

/** Named data access of passkeys: credentials, ceremonies' challenges, the ADMIN-seat policy. */

export type CredentialRow = typeof passkeyCredentials.$inferSelect;

export function credentialsOf(db: Executor, userId: string) {
  return db
    .select()
    .from(passkeyCredentials)
    .where(eq(passkeyCredentials.userId, userId))
    .orderBy(asc(passkeyCredentials.createdAt), asc(passkeyCredentials.id));
}

export async function credentialByCredentialId(db: Executor, credentialId: string) {
  const [row] = await db
    .select({ ...getTableColumns(passkeyCredentials), email: users.email })
    .from(passkeyCredentials)
    .innerJoin(users, eq(users.id, passkeyCredentials.userId))
    .where(eq(passkeyCredentials.credentialId, credentialId))
    .limit(1);
  return row;
}

/** Inserts a credential; undefined when its credential id is already registered. */
export async function insertCredential(
  db: Executor,
  values: typeof passkeyCredentials.$inferInsert,
) {
  const [row] = await db
    .insert(passkeyCredentials)
    .values(values)
    .onConflictDoNothing({ target: passkeyCredentials.credentialId })
    .returning();
  return row;
}

/**
 * Records a use: the new counter and the time. Conditional on the counter read before the
 * check, so two sign-ins racing with one assertion cannot both pass (the second finds no row).
 */
export async function recordCredentialUse(
  db: Executor,
  id: string,
  seen: { counter: number; newCounter: number; at: Date },
) {
  const [row] = await db
    .update(passkeyCredentials)
    .set({ counter: seen.newCounter, lastUsedAt: seen.at })
    .where(and(eq(passkeyCredentials.id, id), eq(passkeyCredentials.counter, seen.counter)))
    .returning({ id: passkeyCredentials.id });
  return row !== undefined;
}

/** Deletes one of the user's own credentials; false when it is not theirs or not there. */
export async function deleteCredential(db: Executor, userId: string, id: string) {
  const rows = await db
    .delete(passkeyCredentials)
    .where(and(eq(passkeyCredentials.id, id), eq(passkeyCredentials.userId, userId)))
    .returning({ id: passkeyCredentials.id });
  return rows.length > 0;
}

export async function userById(db: Executor, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

/** Opens a ceremony: one per binding (a newer one replaces it); expired ones are dropped. */
export async function putChallenge(
  db: Executor,
  values: {
    bindingHash: string;
    purpose: "registration" | "authentication";
    userId: string | null;
    challenge: string;
    expiresAt: Date;
    createdAt: Date;
  },
) {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, values.createdAt));
  const { bindingHash: _binding, ...rest } = values;
  await db
    .insert(webauthnChallenges)
    .values(values)
    .onConflictDoUpdate({ target: webauthnChallenges.bindingHash, set: rest });
}

/** Takes a ceremony's challenge out (single use): the row is gone whatever happens next. */
export async function takeChallenge(db: Executor, bindingHash: string, purpose: string) {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(eq(webauthnChallenges.bindingHash, bindingHash), eq(webauthnChallenges.purpose, purpose)),
    )
    .returning();
  return row;
}

/**
 * True when the user holds an ADMIN seat (one of the built-in `adminRoles` or a custom role on
 * an ADMIN seat) in at least one organization whose policy requires a passkey.
 */
export async function adminSeatRequiresPasskey(
  db: Executor,
  userId: string,
  adminRoles: string[],
): Promise<boolean> {
  const [row] = await db
    .select({ organizationId: memberships.organizationId })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(
      roles,
      and(eq(roles.organizationId, memberships.organizationId), eq(roles.name, memberships.role)),
    )
    .where(
      and(
        eq(memberships.userId, userId),
        eq(organizations.requirePasskey, true),
        or(
          inArray(memberships.role, adminRoles),
          and(isNotNull(roles.id), eq(roles.seat, "ADMIN")),
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}
