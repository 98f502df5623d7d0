import { expect, test } from "bun:test";
import { equipmentUnits } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  async function unit(organizationId: string, name: string, at: string, parentId?: string) {
    const [row] = await db.database.db
      .insert(equipmentUnits)
      .values({ organizationId, name, parentId, createdAt: new Date(at) })
      .returning();
    return row as typeof equipmentUnits.$inferSelect;
  }

  test("GET /api/v1/equipment-units answers the envelope, newest first, with parentId", async () => {
    const { key, organizationId } = await make.member({ scopes: ["equipment:read"] });
    const hq = await unit(organizationId, "Headquarters", "2026-01-01T00:00:00Z");
    const it = await unit(organizationId, "IT department", "2026-01-02T00:00:00Z", hq.id);
    const { status, body } = await getJson(app, "/api/v1/equipment-units", key);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          id: it.id,
          name: "IT department",
          parentId: hq.id,
          createdAt: "2026-01-02T00:00:00.000Z",
        },
        { id: hq.id, name: "Headquarters", parentId: null, createdAt: "2026-01-01T00:00:00.000Z" },
      ],
      pagination: { total: 2, limit: 50, offset: 0 },
    });
  });

  test("pages are stable, ties on createdAt broken by id, and an offset past the end is empty", async () => {
    const { key, organizationId } = await make.member({ scopes: ["equipment:read"] });
    for (let i = 0; i < 7; i++) await unit(organizationId, `Unit ${i}`, "2026-02-01T00:00:00Z");
    await unit(organizationId, "Newest", "2026-03-01T00:00:00Z");
    const { body } = await getJson(app, "/api/v1/equipment-units?limit=200", key);
    expect(body.data[0].name).toBe("Newest");
    const tied = body.data.slice(1).map((u: { id: string }) => u.id);
    expect(tied).toEqual([...tied].sort().reverse());
    await expectStablePages(app, "/api/v1/equipment-units", key);
  });

  test("a technician without any role permission still lists units (scope only)", async () => {
    const org = await make.organization();
    await make.role(org.id, "bare-tech", "TECHNICIAN", []);
    const { key } = await make.member({
      organizationId: org.id,
      role: "bare-tech",
      scopes: ["equipment:read"],
    });
    await unit(org.id, "Lyon", "2026-01-01T00:00:00Z");
    const { status, body } = await getJson(app, "/api/v1/equipment-units", key);
    expect(status).toBe(200);
    expect(body.data.map((u: { name: string }) => u.name)).toEqual(["Lyon"]);
  });

  test("GraphQL equipmentUnits answers the same page as REST", async () => {
    const { key, organizationId } = await make.member({ scopes: ["equipment:read"] });
    await unit(organizationId, "A", "2026-01-01T00:00:00Z");
    await unit(organizationId, "B", "2026-01-02T00:00:00Z");
    const rest = (await getJson(app, "/api/v1/equipment-units?limit=1&offset=1", key)).body;
    const { json } = await graphql(
      app,
      key,
      "{ equipmentUnits(limit: 1, offset: 1) { data { id name parentId createdAt } pagination { total limit offset } } }",
    );
    expect(json.data.equipmentUnits).toEqual(rest);
    expect(rest.data[0].name).toBe("A");
  });
}

describeEachDriver("equipment units (happy)", suite);
