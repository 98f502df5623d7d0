import { expect, test } from "bun:test";
import {
  hasPermission,
  requireApiAccess,
  requireOperator,
  requirePrincipal,
} from "../../src/auth/guard.ts";
import type { Principal } from "../../src/auth/principal.ts";

/** The shared authorization rules, called directly: each refusal's status and message. */
const principal = (overrides: Partial<Principal> = {}): Principal => ({
  organization: { id: "o", name: "O", plan: "PRO", dailyQuota: null, unlimitedQuota: false },
  user: { id: "u", role: "admin" },
  seat: "ADMIN",
  permissions: new Set(["users.view"]),
  apiKey: { id: "k", name: "k", scopes: [], expiresAt: null },
  ...overrides,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    const e = error as { status: number; message: string; code: string };
    return { status: e.status, message: e.message, code: e.code };
  }
  return "allowed";
};

test("requirePrincipal: the key's principal; the operator token is 403; nothing is 401", () => {
  const p = principal();
  expect(requirePrincipal({ principal: p, operator: false })).toBe(p);
  expect(refusal(() => requirePrincipal({ principal: null, operator: true }))).toMatchObject({
    status: 403,
    message: "This operation needs an API key, not the operator token",
  });
  expect(refusal(() => requirePrincipal({ principal: null, operator: false }))).toMatchObject({
    status: 401,
    message: "Missing API key",
  });
});

test("requireApiAccess: PRO and ENTERPRISE admin or technician seats only", () => {
  for (const seat of ["ADMIN", "TECHNICIAN"] as const) {
    const p = principal({ seat });
    expect(requireApiAccess(p)).toBe(p);
  }
  const free = principal({ organization: { ...principal().organization, plan: "FREE" } });
  expect(refusal(() => requireApiAccess(free))).toMatchObject({
    status: 403,
    message: "API access requires the Pro plan",
  });
  const user = principal({ seat: "USER" });
  expect(refusal(() => requireApiAccess(user))).toMatchObject({
    status: 403,
    message: "API access requires an administrator or technician seat",
  });
});

test("requireOperator: the operator token passes; a key is 403; nothing is 401", () => {
  expect(refusal(() => requireOperator({ principal: null, operator: true }))).toBe("allowed");
  expect(refusal(() => requireOperator({ principal: principal(), operator: false }))).toEqual({
    status: 403,
    message: "Operator access required",
    code: "FORBIDDEN",
  });
  expect(refusal(() => requireOperator({ principal: null, operator: false }))).toEqual({
    status: 401,
    message: "Missing operator token",
    code: "UNAUTHENTICATED",
  });
});

test("hasPermission answers the role's permission set", () => {
  expect(hasPermission(principal(), "users.view")).toBe(true);
  expect(hasPermission(principal(), "users.manage")).toBe(false);
});
