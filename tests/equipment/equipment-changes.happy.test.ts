import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipment, equipmentUnits } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { call } from "../helpers/lifecycle.ts";

const SCOPES = ["equipment:read", "equipment:write"];

/** Reading, updating and retiring one equipment record (docs/decisions.md §17.3). */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  async function withDevice() {
    const member = await make.member({ scopes: SCOPES });
    const created = await call(app, "/api/v1/equipments/bulk-create", {
      key: member.key,
      body: { items: [{ name: "ws-1", type: "workstation", platform: "windows" }] },
    });
    return { ...member, id: created.body.items[0].id as string };
  }

  test("GET /equipments/{id} answers the list's fields plus updatedAt, retiredAt and version", async () => {
    const { key, id } = await withDevice();
    const answer = await call(app, `/api/v1/equipments/${id}`, { key });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("etag")).toBe('"1"');
    const at = clock.now().toISOString();
    expect(answer.body).toEqual({
      id,
      name: "ws-1",
      type: "workstation",
      platform: "windows",
      location: null,
      unitId: null,
      managedBy: null,
      assignedUserId: null,
      status: "pending",
      createdAt: at,
      updatedAt: at,
      retiredAt: null,
      version: 1,
    });
  });

  test("PATCH sets and clears fields, counts a version; retire makes it retired for good", async () => {
    const { key, id, user, organizationId } = await withDevice();
    const [unit] = await db.database.db
      .insert(equipmentUnits)
      .values({ organizationId, name: "HQ" })
      .returning();
    clock.advance(1000);
    const patched = await call(app, `/api/v1/equipments/${id}`, {
      key,
      method: "PATCH",
      headers: { "if-match": '"1"' },
      body: {
        name: "  ws-renamed ",
        platform: null,
        location: "Floor 3",
        unitId: unit?.id,
        assignedUserId: user.id,
        status: "online",
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("etag")).toBe('"2"');
    expect(patched.body).toMatchObject({
      name: "ws-renamed",
      platform: null,
      location: "Floor 3",
      unitId: unit?.id,
      assignedUserId: user.id,
      status: "online",
      updatedAt: clock.now().toISOString(),
      version: 2,
    });
    clock.advance(1000);
    const retired = await call(app, `/api/v1/equipments/${id}/retire`, { key, method: "POST" });
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({
      status: "retired",
      retiredAt: clock.now().toISOString(),
      version: 3,
    });
    const [row] = await db.database.db.select().from(equipment).where(eq(equipment.id, id));
    expect(row?.status).toBe("retired");
    const listed = await call(app, "/api/v1/equipments?status=retired", { key });
    expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
  });

  test("two concurrent PATCHes with the same If-Match: exactly one wins", async () => {
    const { key, id } = await withDevice();
    const patch = (name: string) =>
      call(app, `/api/v1/equipments/${id}`, {
        key,
        method: "PATCH",
        headers: { "if-match": '"1"' },
        body: { name },
      });
    const answers = await Promise.all([patch("from-a"), patch("from-b")]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const [row] = await db.database.db.select().from(equipment).where(eq(equipment.id, id));
    expect(row?.version).toBe(2);
  });

  test("GraphQL: equipment(id), updateEquipment and retireEquipment", async () => {
    const { key, id } = await withDevice();
    const { json } = await graphql(
      app,
      key,
      `mutation($id: ID!) {
        updateEquipment(id: $id, input: { managedBy: "MSP" }, expectedVersion: 1) { managedBy version }
      }`,
      { id },
    );
    expect(json.data?.updateEquipment).toEqual({ managedBy: "MSP", version: 2 });
    const retired = await graphql(
      app,
      key,
      `mutation($id: ID!) { retireEquipment(id: $id) { status } }`,
      { id },
    );
    expect(retired.json.data?.retireEquipment).toEqual({ status: "retired" });
    const read = await graphql(app, key, `query($id: ID!) { equipment(id: $id) { version } }`, {
      id,
    });
    expect(read.json.data?.equipment).toEqual({ version: 3 });
  });
}

describeEachDriver("equipment changes", suite);
