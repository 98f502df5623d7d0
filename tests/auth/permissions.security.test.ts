import { expect, test } from "bun:test";
import { requirePermission, requireScope } from "../../src/auth/guard.ts";
import { ApiError } from "../../src/errors.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";

/** The scope AND permission rule, on principals loaded from real keys and memberships. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  const denial = (fn: () => void) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return { status: (error as ApiError).status, body: (error as ApiError).body() };
    }
    return null;
  };

  test("a key without the scope is refused with 403 naming the scope", async () => {
    const { key } = await make.member({ role: "admin", scopes: ["tickets:read"] });
    const principal = await app.services.keys.authenticate(key);
    expect(denial(() => requireScope(principal, "tickets:read"))).toBeNull();
    expect(denial(() => requireScope(principal, "tickets:write"))).toEqual({
      status: 403,
      body: { error: "Missing scope: tickets:write" },
    });
  });

  test("the key's scope cannot exceed its owner's role permissions", async () => {
    const { key } = await make.member({
      role: "technician",
      scopes: ["users:read", "equipment:write"],
    });
    const principal = await app.services.keys.authenticate(key);
    expect(denial(() => requireScope(principal, "users:read"))).toBeNull();
    expect(denial(() => requirePermission(principal, "users.view"))).toBeNull();
    expect(denial(() => requirePermission(principal, "users.manage"))).toEqual({
      status: 403,
      body: { error: "Missing permission: users.manage" },
    });
  });

  test("custom roles grant exactly their permissions", async () => {
    const org = await make.organization();
    await make.role(org.id, "equipment-only", "TECHNICIAN", ["equipment.view_all"]);
    const { key } = await make.member({ organizationId: org.id, role: "equipment-only" });
    const principal = await app.services.keys.authenticate(key);
    expect([...principal.permissions]).toEqual(["equipment.view_all"]);
    expect(denial(() => requirePermission(principal, "equipment.manage"))?.body).toEqual({
      error: "Missing permission: equipment.manage",
    });
  });

  test("admin holds every permission, technician the contract's list", async () => {
    const admin = await app.services.keys.authenticate((await make.member({ role: "admin" })).key);
    const tech = await app.services.keys.authenticate(
      (await make.member({ role: "technician" })).key,
    );
    expect(admin.permissions.size).toBe(12); // audit.view included (docs/security.md#audit-trail)
    expect([...tech.permissions].sort() as string[]).toEqual(
      [
        "alerts.manage",
        "alerts.view",
        "equipment.manage",
        "equipment.view_all",
        "projects.manage",
        "projects.view",
        "tickets.manage",
        "tickets.view_all",
        "users.view",
      ].sort(),
    );
  });
}

describeEachDriver("permissions (security)", suite);
