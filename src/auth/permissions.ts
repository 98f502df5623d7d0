/** Role permissions (docs/decisions.md §4). */
export const PERMISSIONS = [
  "equipment.view_all",
  "equipment.manage",
  "tickets.view_all",
  "tickets.manage",
  "alerts.view",
  "alerts.manage",
  "users.view",
  "users.manage",
  "projects.view",
  "projects.manage",
  "webhooks.manage",
  /** the usage and audit trail; effective on ADMIN seats only (docs/security.md) */
  "audit.view",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Key scopes: interface A's (docs/api.md) plus the project, webhook and audit module scopes. */
export const SCOPES = [
  "equipment:read",
  "equipment:write",
  "tickets:read",
  "tickets:write",
  "users:read",
  "alerts:read",
  "alerts:write",
  "dashboards:read",
  "automations:read",
  "automations:write",
  "projects:read",
  "projects:write",
  "webhooks:read",
  "webhooks:write",
  "audit:read",
] as const;
export type Scope = (typeof SCOPES)[number];

export type Seat = "ADMIN" | "TECHNICIAN" | "USER";
export type Plan = "FREE" | "PRO" | "ENTERPRISE";

export interface RoleDefinition {
  seat: Seat;
  permissions: readonly Permission[];
}

export const BUILT_IN_ROLES: Record<string, RoleDefinition> = {
  admin: { seat: "ADMIN", permissions: PERMISSIONS },
  technician: {
    seat: "TECHNICIAN",
    permissions: [
      "equipment.view_all",
      "equipment.manage",
      "tickets.view_all",
      "tickets.manage",
      "alerts.view",
      "alerts.manage",
      "users.view",
      "projects.view",
      "projects.manage",
    ],
  },
};

/**
 * The built-in role of that name, or undefined. An own-property lookup: `role in BUILT_IN_ROLES`
 * or `BUILT_IN_ROLES[role]` would also find `constructor`, `toString`… on the prototype.
 */
export const builtInRole = (name: string): RoleDefinition | undefined =>
  Object.hasOwn(BUILT_IN_ROLES, name) ? BUILT_IN_ROLES[name] : undefined;

export const isPermission = (p: string): p is Permission =>
  (PERMISSIONS as readonly string[]).includes(p);
export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
