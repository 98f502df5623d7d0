import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipment } from "../../src/db/schema/index.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/** Who reads which changes: the list rules, per type (docs/api.md, the change feed). */
describeEachDriver("change feed: rights", (driver) => {
  const { app, db, make } = useTestApp(driver);
  const ticketBody = { title: "Owner-only ticket", description: "Whose ticket is this one?" };

  test("no key → 401; FREE plan → 403", async () => {
    expect(await getJson(app, "/api/v1/changes")).toMatchObject({
      status: 401,
      body: { error: "Missing API key" },
    });
    const free = await make.member({ plan: "FREE", scopes: ["tickets:read"] });
    expect(await getJson(app, "/api/v1/changes", free.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
  });

  test("a type asked for without its scope or permission → 403 naming it; unasked, it is left out", async () => {
    const { key, organizationId } = await make.member({ scopes: ["tickets:read"] });
    expect(await getJson(app, "/api/v1/changes?types=tickets,equipment", key)).toMatchObject({
      status: 403,
      body: { error: "Missing scope: equipment:read" },
    });
    await make.role(organizationId, "no-alerts", "TECHNICIAN", ["tickets.view_all"]);
    const tech = await make.member({ organizationId, role: "no-alerts", scopes: ["alerts:read"] });
    expect(await getJson(app, "/api/v1/changes?types=alerts", tech.key)).toMatchObject({
      status: 403,
      body: { error: "Missing permission: alerts.view" },
    });
    const both = await make.member({ organizationId, scopes: ["tickets:read", "tickets:write"] });
    await send(app, "/api/v1/tickets", { key: both.key, body: ticketBody });
    await send(app, "/api/v1/equipments/bulk-create", {
      key: (await make.member({ organizationId, scopes: ["equipment:write"] })).key,
      body: { items: [{ name: "Unseen laptop", type: "laptop" }] },
    });
    const { body } = await getJson(app, "/api/v1/changes", both.key);
    expect(body.data.map((c: { type: string }) => c.type)).toEqual(["tickets"]);
    const none = await make.member({ organizationId, scopes: ["users:read"] });
    expect(await getJson(app, "/api/v1/changes", none.key)).toMatchObject({
      status: 403,
      body: { error: "Missing scope: tickets:read" },
    });
  });

  test("without tickets.view_all a key follows only its owner's tickets", async () => {
    const admin = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    const { organizationId } = admin;
    await make.role(organizationId, "own-only", "TECHNICIAN", []);
    const owner = await make.member({
      organizationId,
      role: "own-only",
      scopes: ["tickets:read", "tickets:write"],
    });
    const theirs = await (
      await send(app, "/api/v1/tickets", { key: admin.key, body: ticketBody })
    ).json();
    const mine = await (
      await send(app, "/api/v1/tickets", { key: owner.key, body: ticketBody })
    ).json();
    const own = await getJson(app, "/api/v1/changes", owner.key);
    expect(own.body.data.map((c: { id: string }) => c.id)).toEqual([mine.id]);
    const all = await getJson(app, "/api/v1/changes", admin.key);
    expect(all.body.data.map((c: { id: string }) => c.id)).toEqual([theirs.id, mine.id]);
  });

  test("without equipment.view_all, equipment reassigned away is answered as a delete", async () => {
    const admin = await make.member({ scopes: ["equipment:read", "equipment:write"] });
    const { organizationId } = admin;
    await make.role(organizationId, "assigned-only", "TECHNICIAN", []);
    const owner = await make.member({
      organizationId,
      role: "assigned-only",
      scopes: ["equipment:read"],
    });
    const bulk = await (
      await send(app, "/api/v1/equipments/bulk-create", {
        key: admin.key,
        body: {
          items: [
            { name: "Mine", type: "laptop", assignToUserId: owner.user.id },
            { name: "Not mine", type: "laptop" },
          ],
        },
      })
    ).json();
    const [mine, other] = bulk.items.map((item: { id: string }) => item.id);
    const first = await getJson(app, "/api/v1/changes", owner.key);
    expect(first.body.data.map((c: { id: string; op: string }) => [c.id, c.op])).toEqual([
      [mine, "upsert"],
    ]);
    await db.database.db
      .update(equipment)
      .set({ assignedUserId: admin.user.id })
      .where(eq(equipment.id, mine));
    const after = await getJson(app, `/api/v1/changes?since=${first.body.next}`, owner.key);
    expect(after.body.data).toEqual([
      { type: "equipment", id: mine, op: "delete", at: expect.any(String), record: null },
    ]);
    expect(other).toBeDefined();
  });
});
