import { expect, test } from "bun:test";
import { equipmentUnits } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

/**
 * Tenant isolation of the ticket, alert and equipment changes (docs/api.md): organization B,
 * with every scope and an admin role, reads, changes, comments on, moves and retires A's
 * records by id and gets 404 each time; A's rows stay exactly as they were.
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const call = async (
    path: string,
    key: string,
    init: { method?: string; body?: unknown } = {},
  ) => {
    const response = await send(app, path, { key, ...init });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
    return { status: response.status, body: (await response.json()) as any };
  };

  test("tickets: B cannot read, change, comment on or list the comments of A's ticket, nor assign A's member; B's own stay in B", async () => {
    const { a, b } = await twoOrganizations(make);
    const aTicket = await call("/api/v1/tickets", a.key, {
      body: { title: "A's ticket", description: "only A may see this" },
    });
    const id = aTicket.body.id;
    await call(`/api/v1/tickets/${id}/comments`, a.key, { body: { body: "A's comment" } });
    const bTicket = await call("/api/v1/tickets", b.key, {
      body: { title: "B's ticket", description: "B's own ticket" },
    });
    await expectUntouched(app, a.organizationId, async () => {
      for (const [path, init] of [
        [`/api/v1/tickets/${id}`, {}],
        [`/api/v1/tickets/${id}`, { method: "PATCH", body: { status: "closed" } }],
        [`/api/v1/tickets/${id}/comments`, {}],
        [`/api/v1/tickets/${id}/comments`, { body: { body: "B was here" } }],
      ] as const) {
        const answer = await call(path, b.key, init);
        expect({ path, ...answer }).toEqual({
          path,
          status: 404,
          body: { error: "Ticket not found" },
        });
      }
      const assigned = await call(`/api/v1/tickets/${bTicket.body.id}`, b.key, {
        method: "PATCH",
        body: { assigneeId: a.user.id },
      });
      expect(assigned.status, "A's member cannot be B's assignee").toBe(400);
      const own = await call(`/api/v1/tickets/${bTicket.body.id}/comments`, b.key, {
        body: { body: "B's comment" },
      });
      expect(own.status).toBe(201);
      const listed = await call(`/api/v1/tickets/${bTicket.body.id}/comments`, b.key);
      expect(listed.body.data.map((c: { body: string }) => c.body)).toEqual(["B's comment"]);
      const changed = await call(`/api/v1/tickets/${bTicket.body.id}`, b.key, {
        method: "PATCH",
        body: { status: "closed", assigneeId: b.user.id },
      });
      expect(changed.status).toBe(200);
    });
  });

  test("alerts: B cannot read, acknowledge, resolve or reopen A's alert", async () => {
    const { a, b } = await twoOrganizations(make);
    await app.services.operator.addIngestSource({
      organizationId: a.organizationId,
      cidr: "127.0.8.1/32",
    });
    const ingested = await send(app, "/api/v1/alerts/ingest", {
      method: "POST",
      peer: "127.0.8.1",
      body: { source: "prometheus", title: "A's disk is full" },
    });
    const [id] = (await ingested.json()).ids;
    await expectUntouched(app, a.organizationId, async () => {
      for (const [path, init] of [
        [`/api/v1/alerts/${id}`, {}],
        [`/api/v1/alerts/${id}/acknowledge`, { body: { note: "B" } }],
        [`/api/v1/alerts/${id}/resolve`, { body: {} }],
        [`/api/v1/alerts/${id}/reopen`, { method: "POST" }],
      ] as const) {
        const answer = await call(path, b.key, init);
        expect({ path, ...answer }).toEqual({
          path,
          status: 404,
          body: { error: "Alert not found" },
        });
      }
    });
  });

  test("equipment: B cannot read, update or retire A's record, nor give its own A's unit or member", async () => {
    const { a, b } = await twoOrganizations(make);
    const bulk = async (key: string) =>
      (
        await call("/api/v1/equipments/bulk-create", key, {
          body: { items: [{ name: "ws", type: "workstation" }] },
        })
      ).body.items[0].id as string;
    const aDevice = await bulk(a.key);
    const bDevice = await bulk(b.key);
    const [aUnit] = await db.database.db
      .insert(equipmentUnits)
      .values({ organizationId: a.organizationId, name: "A's floor" })
      .returning();
    await expectUntouched(app, a.organizationId, async () => {
      for (const [path, init] of [
        [`/api/v1/equipments/${aDevice}`, {}],
        [`/api/v1/equipments/${aDevice}`, { method: "PATCH", body: { name: "B's now" } }],
        [`/api/v1/equipments/${aDevice}/retire`, { method: "POST" }],
      ] as const) {
        const answer = await call(path, b.key, init);
        expect({ path, ...answer }).toEqual({
          path,
          status: 404,
          body: { error: "Equipment not found" },
        });
      }
      const cited = await call(`/api/v1/equipments/${bDevice}`, b.key, {
        method: "PATCH",
        body: { assignedUserId: a.user.id },
      });
      expect(cited.status, "A's member is no member of B").toBe(400);
      const unit = await call(`/api/v1/equipments/${bDevice}`, b.key, {
        method: "PATCH",
        body: { unitId: aUnit?.id },
      });
      expect(unit.body.details, "A's unit is unknown to B").toEqual([
        { path: ["unitId"], message: "No unit with this id in your organization" },
      ]);
      const renamed = await call(`/api/v1/equipments/${bDevice}`, b.key, {
        method: "PATCH",
        body: { name: "B's renamed" },
      });
      expect(renamed.status).toBe(200);
      const retired = await call(`/api/v1/equipments/${bDevice}/retire`, b.key, { method: "POST" });
      expect(retired.body.status).toBe("retired");
    });
  });
}

describeEachDriver("isolation of ticket, alert and equipment changes", suite);
