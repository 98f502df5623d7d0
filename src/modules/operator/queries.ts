import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { single } from "../../db/errors.ts";
import {
  agentReleases,
  apiKeys,
  ingestSources,
  memberships,
  organizations,
  roles,
  userSessions,
  users,
} from "../../db/schema/index.ts";

/** Named data access for the operator's writes; the rules stay in the admin services. */

export const findOrganization = (db: Executor, id: string) =>
  db.query.organizations.findFirst({ where: eq(organizations.id, id) });

export const findUser = (db: Executor, id: string) =>
  db.query.users.findFirst({ where: eq(users.id, id) });

export async function insertOrganization(db: Executor, values: typeof organizations.$inferInsert) {
  return single(await db.insert(organizations).values(values).returning());
}

export async function updateOrganizationRow(
  db: Executor,
  id: string,
  changes: Partial<typeof organizations.$inferInsert>,
) {
  return single(
    await db.update(organizations).set(changes).where(eq(organizations.id, id)).returning(),
  );
}

/** Every user's email: the lookalike check compares skeletons, which SQL cannot compute. */
export async function allEmails(db: Executor): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users);
  return rows.map((row) => row.email);
}

/** The emails of the organization's members (the lookalike check of addMember). */
export async function memberEmails(db: Executor, organizationId: string) {
  return db
    .select({ userId: users.id, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId));
}

/**
 * Serialises lookalike checks with the writes they guard until the transaction ends: `scope`
 * "users" for new users, an organization's id for its new members. Two lookalikes written in
 * parallel cannot both pass.
 */
export async function lockLookalikes(db: Executor, scope: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`lookalikes:${scope}`}))`);
}

export async function insertUser(
  db: Executor,
  values: { email: string; firstName: string; lastName: string },
) {
  return single(await db.insert(users).values(values).returning());
}

export const findMembership = (db: Executor, organizationId: string, userId: string) =>
  db.query.memberships.findFirst({
    where: and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)),
  });

/** Adds the membership, or changes the role of one that exists. */
export async function upsertMembership(
  db: Executor,
  values: { organizationId: string; userId: string; role: string },
) {
  return single(
    await db
      .insert(memberships)
      .values(values)
      .onConflictDoUpdate({
        target: [memberships.organizationId, memberships.userId],
        set: { role: values.role },
      })
      .returning(),
  );
}

export function deleteMembership(db: Executor, organizationId: string, userId: string) {
  return db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .returning();
}

export async function deleteUserSessions(db: Executor, userId: string) {
  await db.delete(userSessions).where(eq(userSessions.userId, userId));
}

export const findCustomRole = (db: Executor, organizationId: string, name: string) =>
  db.query.roles.findFirst({
    where: and(eq(roles.organizationId, organizationId), eq(roles.name, name)),
  });

export async function insertRole(db: Executor, values: typeof roles.$inferInsert) {
  return single(await db.insert(roles).values(values).returning());
}

export async function insertIngestSource(
  db: Executor,
  values: { organizationId: string; cidr: string; label: string | null },
) {
  return single(await db.insert(ingestSources).values(values).returning());
}

export async function insertAgentRelease(db: Executor, values: typeof agentReleases.$inferInsert) {
  return single(await db.insert(agentReleases).values(values).returning());
}

export async function insertApiKey(db: Executor, values: typeof apiKeys.$inferInsert) {
  return single(await db.insert(apiKeys).values(values).returning());
}

/**
 * Serialises key creations of one member until the transaction ends (with the count below,
 * parallel creations cannot pass the cap together).
 */
export async function lockMemberKeys(db: Executor, organizationId: string, userId: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`keys:${organizationId}:${userId}`}))`,
  );
}

/**
 * The member's keys neither revoked nor expired at `now`, counted once across rotations: an
 * old secret (rotated, in its grace or after) is the same key as its replacement, so a
 * rotation never changes the count (docs/decisions.md §23).
 */
export async function countActiveKeys(
  db: Executor,
  organizationId: string,
  userId: string,
  now: Date,
) {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.organizationId, organizationId),
        eq(apiKeys.userId, userId),
        isNull(apiKeys.revokedAt),
        isNull(apiKeys.rotatedAt),
        or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)),
      ),
    );
  return row?.n ?? 0;
}

/** Revokes a key not yet revoked; undefined when it is unknown or was revoked before. */
export async function revokeApiKeyRow(db: Executor, id: string, at: Date) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

export const findApiKey = (db: Executor, id: string) =>
  db.query.apiKeys.findFirst({ where: eq(apiKeys.id, id) });
