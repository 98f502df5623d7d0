import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { call } from "../helpers/lifecycle.ts";

/** Changing equipment needs equipment:write AND equipment.manage; reading follows the list's rule. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  async function device(key: string, assignToUserId?: string) {
    const created = await call(app, "/api/v1/equipments/bulk-create", {
      key,
      body: { items: [{ name: "ws", type: "workstation", assignToUserId }] },
    });
    return created.body.items[0].id as string;
  }

  test("without equipment:write → 403 Missing scope; without equipment.manage → 403 Missing permission", async () => {
    const admin = await make.member({ scopes: ["equipment:read", "equipment:write"] });
    const id = await device(admin.key);
    const reader = await make.member({
      scopes: ["equipment:read"],
      organizationId: admin.organizationId,
    });
    const patched = await call(app, `/api/v1/equipments/${id}`, {
      key: reader.key,
      method: "PATCH",
      body: { name: "x" },
    });
    expect(patched).toMatchObject({
      status: 403,
      body: { error: "Missing scope: equipment:write" },
    });
    await make.role(admin.organizationId, "viewer", "TECHNICIAN", ["equipment.view_all"]);
    const viewer = await make.member({
      scopes: ["equipment:read", "equipment:write"],
      role: "viewer",
      organizationId: admin.organizationId,
    });
    const retired = await call(app, `/api/v1/equipments/${id}/retire`, {
      key: viewer.key,
      method: "POST",
    });
    expect(retired).toMatchObject({
      status: 403,
      body: { error: "Missing permission: equipment.manage" },
    });
    expect((await call(app, `/api/v1/equipments/${id}`, { key: viewer.key })).body.version).toBe(1);
  });

  test("without equipment.view_all only equipment assigned to the owner is readable; the rest is 404", async () => {
    const admin = await make.member({ scopes: ["equipment:read", "equipment:write"] });
    await make.role(admin.organizationId, "desk", "TECHNICIAN", ["equipment.manage"]);
    const desk = await make.member({
      scopes: ["equipment:read", "equipment:write"],
      role: "desk",
      organizationId: admin.organizationId,
    });
    const mine = await device(admin.key, desk.user.id);
    const other = await device(admin.key);
    expect((await call(app, `/api/v1/equipments/${mine}`, { key: desk.key })).status).toBe(200);
    for (const [path, method] of [
      [`/api/v1/equipments/${other}`, "GET"],
      [`/api/v1/equipments/${other}/retire`, "POST"],
    ] as const) {
      const answer = await call(app, path, { key: desk.key, method });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    }
  });
}

describeEachDriver("equipment changes: who may", suite);
