import { resolveRole } from "../../auth/load-principal.ts";
import type { Seat } from "../../auth/permissions.ts";
import type { Member } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { forbidden, notFound } from "../../errors.ts";
import { isUuid } from "../../validation.ts";
import type { ApiKeyAdmin, KeyExpiration } from "../operator/api-keys.ts";
import { keyById, keysWithOwners, memberOrganizations } from "./queries.ts";

export interface MyOrganization {
  id: string;
  name: string;
  plan: "FREE" | "PRO" | "ENTERPRISE";
  role: string;
  seat: Seat;
  /** the organization's maximum API key lifetime in days; null: none */
  maxKeyLifetimeDays: number | null;
}

/**
 * A key is revoked, replaced by a rotation (its old secret, docs/security.md), expired at its
 * `expiresAt` instant (docs/decisions.md, "Expiry instant"), or active.
 */
export function keyStatus(
  key: { expiresAt: Date | null; revokedAt: Date | null; rotatedAt?: Date | null },
  now: Date,
): "REVOKED" | "ROTATED" | "EXPIRED" | "ACTIVE" {
  if (key.revokedAt) return "REVOKED";
  if (key.rotatedAt) return "ROTATED";
  const expired = key.expiresAt && key.expiresAt.getTime() <= now.getTime();
  return expired ? "EXPIRED" : "ACTIVE";
}

/**
 * The rules of the settings screen's key management, once for every caller: a member sees and
 * revokes their own keys in an organization they belong to; an ADMIN seat sees and revokes
 * everyone's there; keys are created only for oneself, and only where API access is possible.
 * Another organization's keys are "not found", never "forbidden".
 */
export class MemberKeyService {
  constructor(
    private readonly database: Database,
    private readonly apiKeys: ApiKeyAdmin,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The member's organizations, by name (the screen's default is the first). */
  async organizations(member: Member): Promise<MyOrganization[]> {
    const rows = await memberOrganizations(this.db, member.userId);
    return rows.flatMap(({ customSeat, customPermissions, ...row }) => {
      const role = resolveRole(row.role, customSeat, customPermissions);
      return role ? [{ ...row, seat: role.seat }] : [];
    });
  }

  /** The member's place in one organization, read live on every call: removal counts at once. */
  private async membership(member: Member, organizationId: string): Promise<MyOrganization> {
    const mine = isUuid(organizationId) ? await this.organizations(member) : [];
    const found = mine.find((org) => org.id === organizationId);
    if (!found) throw notFound("Organization not found");
    return found;
  }

  /** Newest first; an ADMIN seat sees every member's keys, anyone else only their own. */
  async list(member: Member, organizationId: string) {
    const org = await this.membership(member, organizationId);
    return keysWithOwners(this.db, org.id, org.seat === "ADMIN" ? undefined : member.userId);
  }

  async create(
    member: Member,
    input: { organizationId: string; name: string; scopes: string[]; expiresIn: KeyExpiration },
  ) {
    const org = await this.membership(member, input.organizationId);
    // a key never does more than its owner: one that could not call the API is not handed out
    if (org.plan === "FREE") throw forbidden("API access requires the Pro plan");
    if (org.seat !== "ADMIN" && org.seat !== "TECHNICIAN") {
      throw forbidden("API access requires an administrator or technician seat");
    }
    return this.apiKeys.createApiKey({ ...input, userId: member.userId });
  }

  async revoke(member: Member, id: string) {
    const key = isUuid(id) ? await keyById(this.db, id) : undefined;
    if (!key) throw notFound("API key not found");
    const org = (await this.organizations(member)).find((o) => o.id === key.organizationId);
    const allowed = org && (key.userId === member.userId || org.seat === "ADMIN");
    if (!allowed) throw notFound("API key not found");
    return this.apiKeys.revokeApiKey(id);
  }
}
