import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiKeys, memberships, organizations, roles } from "../db/schema/index.ts";
import { compileAllowlist } from "./ip-allowlist.ts";
import { builtInRole, isPermission, isScope, type Permission, type Seat } from "./permissions.ts";
import type { Principal } from "./principal.ts";

/** What one key hash resolves to; cached by the KeyStore. */
export interface KeyRecord {
  keyId: string;
  organizationId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** set when the key was rotated: its secret is refused from this instant on */
  graceEndsAt: Date | null;
  /** whether a client address may use the key; undefined: any address (no allowlist) */
  allows?: (ip: string) => boolean;
  /** null when the owner is no longer a member */
  principal: Principal | null;
}

/**
 * One query: the key, its organization, the owner's membership and (custom) role. A missing
 * membership leaves `principal` null: the owner has left the organization.
 */
export async function loadKeyRecord(db: Db, hash: string): Promise<KeyRecord | null> {
  const [row] = await db
    .select({
      keyId: apiKeys.id,
      keyName: apiKeys.name,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      graceEndsAt: apiKeys.graceEndsAt,
      allowedIps: apiKeys.allowedIps,
      userId: apiKeys.userId,
      organization: {
        id: organizations.id,
        name: organizations.name,
        plan: organizations.plan,
        dailyQuota: organizations.dailyQuota,
        unlimitedQuota: organizations.unlimitedQuota,
      },
      role: memberships.role,
      customSeat: roles.seat,
      customPermissions: roles.permissions,
    })
    .from(apiKeys)
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .leftJoin(
      memberships,
      and(
        eq(memberships.organizationId, apiKeys.organizationId),
        eq(memberships.userId, apiKeys.userId),
      ),
    )
    .leftJoin(
      roles,
      and(eq(roles.organizationId, apiKeys.organizationId), eq(roles.name, memberships.role)),
    )
    .where(eq(apiKeys.keyHash, hash))
    .limit(1);
  if (!row) return null;
  const role = row.role ? resolveRole(row.role, row.customSeat, row.customPermissions) : null;
  return {
    keyId: row.keyId,
    organizationId: row.organization.id,
    revokedAt: row.revokedAt,
    expiresAt: row.expiresAt,
    graceEndsAt: row.graceEndsAt,
    allows: compileAllowlist(row.allowedIps),
    principal:
      row.role && role
        ? {
            organization: row.organization,
            user: { id: row.userId, role: row.role },
            seat: role.seat,
            permissions: role.permissions,
            apiKey: {
              id: row.keyId,
              name: row.keyName,
              scopes: row.scopes.filter(isScope),
              expiresAt: row.expiresAt,
            },
          }
        : null,
  };
}

export function resolveRole(
  name: string,
  customSeat: Seat | null,
  customPermissions: string[] | null,
): { seat: Seat; permissions: ReadonlySet<Permission> } | null {
  const builtIn = builtInRole(name);
  if (builtIn) return { seat: builtIn.seat, permissions: new Set(builtIn.permissions) };
  if (!customSeat || !customPermissions) return null;
  return { seat: customSeat, permissions: new Set(customPermissions.filter(isPermission)) };
}
