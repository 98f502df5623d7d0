import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipment, equipmentUnits } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson, graphqlError } from "../helpers/lists.ts";

const SCOPES = ["equipment:read", "equipment:write"];
const one = { items: [{ name: "ws", type: "workstation" }] };

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const bulk = (key: string | undefined, body: unknown = one) =>
    send(app, "/api/v1/equipments/bulk-create", { key, body });
  const stored = (organizationId: string) =>
    db.database.db.$count(equipment, eq(equipment.organizationId, organizationId));

  test("no key → 401 on every route", async () => {
    for (const response of [await send(app, "/api/v1/equipments"), await bulk(undefined)]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Missing API key" });
    }
  });

  test("missing scope → 403 naming it", async () => {
    const reader = await make.member({ scopes: ["equipment:read"] });
    const denied = await bulk(reader.key);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ error: "Missing scope: equipment:write" });
    expect(await stored(reader.organizationId)).toBe(0);
    const writer = await make.member({ scopes: ["equipment:write"] });
    expect(await getJson(app, "/api/v1/equipments", writer.key)).toMatchObject({
      status: 403,
      body: { error: "Missing scope: equipment:read" },
    });
  });

  test("missing permission equipment.manage → 403 even with the scope", async () => {
    const org = await make.organization();
    await make.role(org.id, "viewer", "TECHNICIAN", ["equipment.view_all"]);
    const viewer = await make.member({ organizationId: org.id, role: "viewer", scopes: SCOPES });
    const response = await bulk(viewer.key);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "Missing permission: equipment.manage" });
    expect(await stored(org.id)).toBe(0);
  });

  test("FREE plan → 403", async () => {
    const free = await make.member({ plan: "FREE", scopes: SCOPES });
    const refused = await bulk(free.key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "API access requires the Pro plan" });
    expect((await getJson(app, "/api/v1/equipments", free.key)).body).toEqual({
      error: "API access requires the Pro plan",
    });
  });

  test("another organization's equipment is never listed; its unit is 'unknown'", async () => {
    const mine = await make.member({ scopes: SCOPES });
    const theirs = await make.member({ scopes: SCOPES });
    await bulk(theirs.key);
    const [theirUnit] = await db.database.db
      .insert(equipmentUnits)
      .values({ organizationId: theirs.organizationId, name: "Their HQ" })
      .returning();
    const result = await (
      await bulk(mine.key, {
        items: [
          { name: "ok", type: "laptop" },
          { name: "x", type: "laptop", unitId: theirUnit?.id },
        ],
      })
    ).json();
    expect(result.errors).toEqual([
      { index: 1, name: "x", error: "unitId: No unit with this id in your organization" },
    ]);
    const { body } = await getJson(app, "/api/v1/equipments", mine.key);
    expect(body.data.map((e: { name: string }) => e.name)).toEqual(["ok"]);
    expect(body.pagination.total).toBe(1);
  });

  test("without equipment.view_all only equipment assigned to the owner is listed", async () => {
    const admin = await make.member({ scopes: SCOPES });
    await make.role(admin.organizationId, "field", "TECHNICIAN", ["tickets.view_all"]);
    const field = await make.member({
      organizationId: admin.organizationId,
      role: "field",
      scopes: SCOPES,
    });
    await bulk(admin.key, {
      items: [
        { name: "theirs", type: "laptop", assignToUserId: field.user.id },
        { name: "admins", type: "laptop", assignToUserId: admin.user.id },
        { name: "nobody", type: "laptop" },
      ],
    });
    const fieldView = await getJson(app, "/api/v1/equipments", field.key);
    expect(fieldView.body.data.map((e: { name: string }) => e.name)).toEqual(["theirs"]);
    expect(fieldView.body.pagination.total).toBe(1);
    const adminView = await getJson(app, "/api/v1/equipments", admin.key);
    expect(adminView.body.pagination.total).toBe(3);
  });

  test("GraphQL applies the same permission rule", async () => {
    const org = await make.organization();
    await make.role(org.id, "viewer", "TECHNICIAN", ["equipment.view_all"]);
    const viewer = await make.member({ organizationId: org.id, role: "viewer", scopes: SCOPES });
    const error = await graphqlError(
      app,
      viewer.key,
      `mutation { bulkCreateEquipment(input: { items: [{ name: "a", type: "laptop" }] }) { created } }`,
    );
    expect(error).toMatchObject({ status: 403, message: "Missing permission: equipment.manage" });
  });
}

describeEachDriver("equipment security", suite);
