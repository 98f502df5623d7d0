import { and, asc, count, desc, eq, ilike } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import {
  apiKeys,
  ingestSources,
  memberships,
  organizations,
  roles,
  userPasswords,
  users,
} from "../../db/schema/index.ts";

/**
 * Named data access of the settings screen's keys and of the operator's reads. The operator
 * never reads a hash or a secret: keys are selected column by column, so no hash can leak
 * through a later field addition. (Passwords, invitations, sign-in failures: account-queries.ts.)
 */

/** A user's memberships with the organization's plan and the custom role, if any, by name. */
export function memberOrganizations(db: Executor, userId: string) {
  return db
    .select({
      id: organizations.id,
      name: organizations.name,
      plan: organizations.plan,
      maxKeyLifetimeDays: organizations.maxKeyLifetimeDays,
      role: memberships.role,
      customSeat: roles.seat,
      customPermissions: roles.permissions,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .leftJoin(
      roles,
      and(eq(roles.organizationId, memberships.organizationId), eq(roles.name, memberships.role)),
    )
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** Keys of one organization with their owners, newest first; of one owner when `userId` is given. */
export async function keysWithOwners(db: Executor, organizationId: string, userId?: string) {
  const where = userId
    ? and(eq(apiKeys.organizationId, organizationId), eq(apiKeys.userId, userId))
    : eq(apiKeys.organizationId, organizationId);
  const rows = await db
    .select({ key: apiKeys, owner: users, maxKeyLifetimeDays: organizations.maxKeyLifetimeDays })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(where)
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(({ key, owner, maxKeyLifetimeDays }) => ({ ...key, owner, maxKeyLifetimeDays }));
}

export const keyById = (db: Executor, id: string) =>
  db.query.apiKeys.findFirst({ where: eq(apiKeys.id, id) });

export async function organizationsPage(db: Executor, window: { limit: number; offset: number }) {
  const data = await db
    .select()
    .from(organizations)
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(window.limit)
    .offset(window.offset);
  const [total] = await db.select({ n: count() }).from(organizations);
  return { data, total: total?.n ?? 0 };
}

export async function membersOf(db: Executor, organizationId: string) {
  const rows = await db
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(users.email));
  return rows.map(({ membership, user }) => ({ ...membership, user }));
}

export function rolesOf(db: Executor, organizationId: string) {
  return db
    .select()
    .from(roles)
    .where(eq(roles.organizationId, organizationId))
    .orderBy(asc(roles.name));
}

export function ingestSourcesOf(db: Executor, organizationId: string) {
  return db
    .select()
    .from(ingestSources)
    .where(eq(ingestSources.organizationId, organizationId))
    .orderBy(asc(ingestSources.createdAt));
}

/** Every key of the organization with its owner, newest first; no hash. */
export function keysOf(db: Executor, organizationId: string) {
  return db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      userId: apiKeys.userId,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
      createdAt: apiKeys.createdAt,
      allowedIps: apiKeys.allowedIps,
      rotatedAt: apiKeys.rotatedAt,
      replacedById: apiKeys.replacedById,
      graceEndsAt: apiKeys.graceEndsAt,
      graceUsedAt: apiKeys.graceUsedAt,
      graceUsedIp: apiKeys.graceUsedIp,
      maxKeyLifetimeDays: organizations.maxKeyLifetimeDays,
      owner: users,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(eq(apiKeys.organizationId, organizationId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

export async function userById(db: Executor, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Users whose email matches the ILIKE pattern, by email, with whether a password is set. */
export async function usersByEmail(db: Executor, pattern: string, limit: number) {
  const rows = await db
    .select({ user: users, passwordSetAt: userPasswords.updatedAt })
    .from(users)
    .leftJoin(userPasswords, eq(userPasswords.userId, users.id))
    .where(ilike(users.email, pattern))
    .orderBy(asc(users.email))
    .limit(limit);
  return rows.map(({ user, passwordSetAt }) => ({ ...user, hasPassword: passwordSetAt !== null }));
}

export async function membershipsOfUser(db: Executor, userId: string) {
  const rows = await db
    .select({ membership: memberships, organization: organizations })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name));
  return rows.map(({ membership, organization }) => ({ ...membership, organization }));
}
