import { and, eq, isNull } from "drizzle-orm";
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
