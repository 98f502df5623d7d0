import { asc, count, desc, eq, ilike } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import {
  apiKeys,
  ingestSources,
  memberships,
  organizations,
  roles,
  userPasswords,
  users,
} from "../../db/schema/index.ts";
import { Problems } from "../../validation.ts";
import { requireOrganization } from "../operator/lookups.ts";

/** Operator page bounds: page ≥ 1, limit 1..100 (default 20). */
function window(page: number | null | undefined, limit: number | null | undefined) {
  const p = page ?? 1;
  const l = limit ?? 20;
  new Problems()
    .check(Number.isInteger(p) && p >= 1, ["page"], "Must be an integer ≥ 1")
    .check(Number.isInteger(l) && l >= 1 && l <= 100, ["limit"], "Must be an integer from 1 to 100")
    .throwIfAny();
  return { page: p, limit: l };
}

/**
 * The operator's read queries (docs/decisions.md §10): what exists, never a hash or a secret.
 * Keys are selected column by column, so no hash can leak through a later field addition.
 */
export class OperatorReads {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async organizations(args: { page?: number | null; limit?: number | null }) {
    const { page, limit } = window(args.page, args.limit);
    const data = await this.db
      .select()
      .from(organizations)
      .orderBy(asc(organizations.name), asc(organizations.id))
      .limit(limit)
      .offset((page - 1) * limit);
    const [total] = await this.db.select({ n: count() }).from(organizations);
    return { data, pagination: { page, limit, total: total?.n ?? 0 } };
  }

  organization(id: string) {
    return requireOrganization(this.db, id);
  }

  async members(organizationId: string) {
    const rows = await this.db
      .select({ membership: memberships, user: users })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organizationId, organizationId))
      .orderBy(asc(users.email));
    return rows.map(({ membership, user }) => ({ ...membership, user }));
  }

  roles(organizationId: string) {
    return this.db
      .select()
      .from(roles)
      .where(eq(roles.organizationId, organizationId))
      .orderBy(asc(roles.name));
  }

  ingestSources(organizationId: string) {
    return this.db
      .select()
      .from(ingestSources)
      .where(eq(ingestSources.organizationId, organizationId))
      .orderBy(asc(ingestSources.createdAt));
  }

  apiKeys(organizationId: string) {
    return this.db
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
        owner: users,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.organizationId, organizationId))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  }

  /** One user by id (a key's owner where the key was read without it); null when unknown. */
  async userById(id: string) {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row ?? null;
  }

  /** Users whose email contains the text (case-insensitive), by email; at most 100. */
  async users(email: string | null | undefined) {
    const pattern = `%${(email ?? "").trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.db
      .select({ user: users, passwordSetAt: userPasswords.updatedAt })
      .from(users)
      .leftJoin(userPasswords, eq(userPasswords.userId, users.id))
      .where(ilike(users.email, pattern))
      .orderBy(asc(users.email))
      .limit(100);
    return rows.map(({ user, passwordSetAt }) => ({
      ...user,
      hasPassword: passwordSetAt !== null,
    }));
  }

  /** A user's memberships with their organizations (for `users`). */
  async membershipsOf(userId: string) {
    const rows = await this.db
      .select({ membership: memberships, organization: organizations })
      .from(memberships)
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(eq(memberships.userId, userId))
      .orderBy(asc(organizations.name));
    return rows.map(({ membership, organization }) => ({ ...membership, organization }));
  }
}
