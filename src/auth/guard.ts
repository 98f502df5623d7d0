import { ApiError, forbidden, unauthenticated } from "../errors.ts";
import type { Permission, Scope } from "./permissions.ts";
import type { Principal } from "./principal.ts";

/**
 * Authorization rules shared by every resolver, so REST and GraphQL cannot disagree.
 * A key never does more than its owner: both the scope and the role permission must allow.
 */
export interface AuthContext {
  principal: Principal | null;
  operator: boolean;
}

export function requirePrincipal(ctx: AuthContext): Principal {
  if (ctx.principal) return ctx.principal;
  if (ctx.operator) throw forbidden("This operation needs an API key, not the operator token");
  throw unauthenticated("Missing API key");
}

/**
 * The one API-access rule of Interface A (part of the Pro plan, for administrator and technician
 * seats). Each feature's service applies it to the principal its resolver hands over.
 */
export function requireApiAccess(principal: Principal): Principal {
  if (principal.organization.plan === "FREE") throw forbidden("API access requires the Pro plan");
  if (principal.seat !== "ADMIN" && principal.seat !== "TECHNICIAN") {
    throw forbidden("API access requires an administrator or technician seat");
  }
  return principal;
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.apiKey.scopes.includes(scope)) throw forbidden(`Missing scope: ${scope}`);
}

export function requirePermission(principal: Principal, permission: Permission): void {
  if (!principal.permissions.has(permission)) throw forbidden(`Missing permission: ${permission}`);
}

export const hasPermission = (principal: Principal, permission: Permission) =>
  principal.permissions.has(permission);

export function requireOperator(ctx: AuthContext): void {
  if (ctx.operator) return;
  if (ctx.principal) throw forbidden("Operator access required");
  throw new ApiError("UNAUTHENTICATED", "Missing operator token");
}
