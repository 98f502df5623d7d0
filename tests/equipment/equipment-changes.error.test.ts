import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { call, eventCount, watchEvents } from "../helpers/lifecycle.ts";

const SCOPES = ["equipment:read", "equipment:write", "webhooks:read", "webhooks:write"];
const EVENTS = ["equipment.updated", "equipment.retired"];

/** Bad equipment changes: a clear 4xx, the record unchanged and no event written. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  async function arranged(retired = false) {
    const member = await make.member({ scopes: SCOPES });
    await watchEvents(app, member.key, EVENTS);
    const created = await call(app, "/api/v1/equipments/bulk-create", {
      key: member.key,
      body: { items: [{ name: "ws-1", type: "workstation" }] },
    });
    const id = created.body.items[0].id as string;
    if (retired)
      await call(app, `/api/v1/equipments/${id}/retire`, { key: member.key, method: "POST" });
    const events = await eventCount(app, member.organizationId);
    const before = await call(app, `/api/v1/equipments/${id}`, { key: member.key });
    const unchanged = async () => {
      const after = await call(app, `/api/v1/equipments/${id}`, { key: member.key });
      expect(after.body, "the record is unchanged").toEqual(before.body);
      expect(await eventCount(app, member.organizationId), "no event written").toBe(events);
    };
    return { ...member, id, unchanged };
  }
  const patch = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
    call(app, `/api/v1/equipments/${id}`, { key, method: "PATCH", body, headers });

  test("a retired record: PATCH → 409 Equipment is retired, retire again → 409 retired → retired", async () => {
    const { key, id, unchanged } = await arranged(true);
    expect(await patch(key, id, { name: "revived" })).toMatchObject({
      status: 409,
      body: { error: "Equipment is retired" },
    });
    const again = await call(app, `/api/v1/equipments/${id}/retire`, { key, method: "POST" });
    expect(again).toMatchObject({
      status: 409,
      body: { error: "Invalid status transition: retired → retired" },
    });
    await unchanged();
  });

  test("an empty patch, status retired, nulls of required fields, bad ids and long text → 400", async () => {
    const { key, id, unchanged } = await arranged();
    for (const [body, path] of [
      [{}, "body"],
      [{ status: "retired" }, "status"],
      [{ name: null }, "name"],
      [{ name: "   " }, "name"],
      [{ type: "toaster" }, "type"],
      [{ location: "l".repeat(501) }, "location"],
      [{ unitId: crypto.randomUUID() }, "unitId"],
      [{ assignedUserId: crypto.randomUUID() }, "assignedUserId"],
      [{ managedBy: "nul\u0000" }, "managedBy"],
    ] as const) {
      const answer = await patch(key, id, body);
      expect({ body, status: answer.status, path: answer.body.details?.[0]?.path }).toEqual({
        body,
        status: 400,
        path: [path],
      });
    }
    await unchanged();
  });

  test("an unknown id → 404; a stale If-Match → 412", async () => {
    const { key, id, unchanged } = await arranged();
    const missing = await patch(key, crypto.randomUUID(), { name: "x" });
    expect(missing).toMatchObject({ status: 404, body: { error: "Equipment not found" } });
    const retire = await call(app, `/api/v1/equipments/nope/retire`, { key, method: "POST" });
    expect(retire.status).toBe(404);
    expect(await patch(key, id, { name: "x" }, { "if-match": '"2"' })).toMatchObject({
      status: 412,
      body: { error: "Version mismatch" },
    });
    const staleRetire = await call(app, `/api/v1/equipments/${id}/retire`, {
      key,
      method: "POST",
      headers: { "if-match": '"5"' },
    });
    expect(staleRetire.status).toBe(412);
    await unchanged();
  });
}

describeEachDriver("equipment changes: bad input", suite);
