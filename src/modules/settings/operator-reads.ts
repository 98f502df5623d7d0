import type { Database } from "../../db/client.ts";
import { Problems } from "../../validation.ts";
import { requireOrganization } from "../operator/lookups.ts";
import * as q from "./queries.ts";

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
 * The operator's read queries (docs/decisions.md §10): what exists, never a hash or a secret
 * (queries.ts selects keys column by column). The resolvers check the operator token.
 */
export class OperatorReads {
  constructor(private readonly database: Database) {}

  private get db() {
    return this.database.db;
  }

  async organizations(args: { page?: number | null; limit?: number | null }) {
    const { page, limit } = window(args.page, args.limit);
    const { data, total } = await q.organizationsPage(this.db, {
      limit,
      offset: (page - 1) * limit,
    });
    return { data, pagination: { page, limit, total } };
  }

  organization(id: string) {
    return requireOrganization(this.db, id);
  }

  members(organizationId: string) {
    return q.membersOf(this.db, organizationId);
  }

  roles(organizationId: string) {
    return q.rolesOf(this.db, organizationId);
  }

  ingestSources(organizationId: string) {
    return q.ingestSourcesOf(this.db, organizationId);
  }

  apiKeys(organizationId: string) {
    return q.keysOf(this.db, organizationId);
  }

  /** One user by id (a key's owner where the key was read without it); null when unknown. */
  userById(id: string) {
    return q.userById(this.db, id);
  }

  /** Users whose email contains the text (case-insensitive), by email; at most 100. */
  users(email: string | null | undefined) {
    const pattern = `%${(email ?? "").trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return q.usersByEmail(this.db, pattern, 100);
  }

  /** A user's memberships with their organizations (for `users`). */
  membershipsOf(userId: string) {
    return q.membershipsOfUser(this.db, userId);
  }
}
