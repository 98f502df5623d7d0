import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { equipment, tickets } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

const SCOPES = ["tickets:read", "tickets:write"];
const valid = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

/** for sort: b before a when b is larger (ISO timestamps and lowercase uuids compare as text) */
const descending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("POST /tickets → 201 with exactly the documented snake_case fields, open, medium, by the owner", async () => {
    const { key, user, organizationId } = await make.member({ scopes: SCOPES });
    const response = await send(app, "/api/v1/tickets", { key, body: valid });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(
      ["created_at", "created_by", "equipment_id", "id", "priority", "status", "title"].sort(),
    );
    expect(body).toMatchObject({
      title: valid.title,
      status: "open",
      priority: "medium",
      equipment_id: null,
      created_by: user.id,
    });
    expect(new Date(body.created_at).toISOString()).toBe(body.created_at);
    const [row] = await db.database.db.select().from(tickets).where(eq(tickets.id, body.id));
    expect(row).toMatchObject({
      organizationId,
      description: valid.description,
      createdBy: user.id,
      status: "open",
    });
  });

  test("POST /tickets with priority and equipment of the organization", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const [device] = await db.database.db
      .insert(equipment)
      .values({ organizationId, name: "ws-1", type: "workstation" })
      .returning();
    const response = await send(app, "/api/v1/tickets", {
      key,
      body: { ...valid, priority: "critical", equipmentId: device?.id },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      priority: "critical",
      equipment_id: device?.id,
    });
  });

  test("GET /tickets: envelope, newest first, same fields as creation", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const created = [];
    for (const title of ["First ticket", "Second ticket", "Third ticket"]) {
      created.push(
        await (await send(app, "/api/v1/tickets", { key, body: { ...valid, title } })).json(),
      );
    }
    const { status, body } = await getJson(app, "/api/v1/tickets", key);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    // newest first: created_at desc, then id desc (tickets made in the same millisecond tie)
    const newestFirst = [...created].sort(
      (a, b) => descending(a.created_at, b.created_at) || descending(a.id, b.id),
    );
    expect(body.data).toEqual(newestFirst);
  });

  test("GET /tickets filters by status and priority", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const low = await (
      await send(app, "/api/v1/tickets", { key, body: { ...valid, priority: "low" } })
    ).json();
    const high = await (
      await send(app, "/api/v1/tickets", { key, body: { ...valid, priority: "high" } })
    ).json();
    await db.database.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, high.id));
    const byPriority = await getJson(app, "/api/v1/tickets?priority=low", key);
    expect(byPriority.body.data.map((t: { id: string }) => t.id)).toEqual([low.id]);
    const closed = await getJson(app, "/api/v1/tickets?status=closed", key);
    expect(closed.body.data.map((t: { id: string }) => t.id)).toEqual([high.id]);
    expect(closed.body.data[0].status).toBe("closed");
    const both = await getJson(app, "/api/v1/tickets?status=open&priority=high", key);
    expect(both.body).toEqual({ data: [], pagination: { total: 0, limit: 50, offset: 0 } });
  });

  test("pages are stable and complete, also when rows share a creation instant", async () => {
    const { key, organizationId, user } = await make.member({ scopes: SCOPES });
    const at = new Date("2026-01-01T00:00:00Z");
    await db.database.db.insert(tickets).values(
      Array.from({ length: 7 }, (_, i) => ({
        organizationId,
        title: `Same instant ${i}`,
        description: valid.description,
        createdBy: user.id,
        createdAt: at,
      })),
    );
    await expectStablePages(app, "/api/v1/tickets", key);
  });

  test("a page of 200 tickets costs a bounded number of queries (no N+1)", async () => {
    const { key, organizationId, user } = await make.member({ scopes: SCOPES });
    await db.database.db.insert(tickets).values(
      Array.from({ length: 210 }, (_, i) => ({
        organizationId,
        title: `Bulk ticket ${i}`,
        description: valid.description,
        createdBy: user.id,
      })),
    );
    await getJson(app, "/api/v1/tickets?limit=1", key); // warms the key cache
    const before = db.database.stats.queries;
    const { body } = await getJson(app, "/api/v1/tickets?limit=200", key);
    expect(body.data).toHaveLength(200);
    // page + count; the counter is shared with background timers (heartbeat, flushes, the
    // webhook dispatcher's poll), hence some slack — an N+1 would cost 200 more
    expect(db.database.stats.queries - before).toBeLessThanOrEqual(10);
  });

  test("GraphQL: tickets and createTicket with the same key", async () => {
    const { key, user } = await make.member({ scopes: SCOPES });
    const created = await graphql(
      app,
      key,
      `mutation { createTicket(input: { title: "Over GraphQL", description: "Created through the GraphQL API", priority: high }) { id status priority createdBy description } }`,
    );
    expect(created.json.errors).toBeUndefined();
    expect(created.json.data.createTicket).toMatchObject({
      status: "open",
      priority: "high",
      createdBy: user.id,
      description: "Created through the GraphQL API",
    });
    const listed = await graphql(
      app,
      key,
      "{ tickets(limit: 5) { data { id } pagination { total limit offset } } }",
    );
    expect(listed.json.data.tickets).toEqual({
      data: [{ id: created.json.data.createTicket.id }],
      pagination: { total: 1, limit: 5, offset: 0 },
    });
  });

  test("GraphQL: a list shows the assignee, last change and version when asked, the REST list never", async () => {
    const { key, user } = await make.member({ scopes: SCOPES });
    const created = await send(app, "/api/v1/tickets", { key, body: valid });
    const { id } = await created.json();
    const updated = await graphql(
      app,
      key,
      `mutation($id: ID!, $assignee: ID) { updateTicket(id: $id, input: { status: in_progress, assigneeId: $assignee }) { updatedAt version } }`,
      { id, assignee: user.id },
    );
    expect(updated.json.errors).toBeUndefined();
    const { updatedAt, version } = updated.json.data.updateTicket;
    expect(version).toBe(2);
    // each of the three alone, and with the description, reads the stored values
    for (const fields of ["assigneeId", "updatedAt", "version", "description assigneeId"]) {
      const listed = await graphql(app, key, `{ tickets(limit: 5) { data { id ${fields} } } }`);
      expect(listed.json.errors, fields).toBeUndefined();
      const row = listed.json.data.tickets.data[0];
      const expected = {
        id,
        assigneeId: user.id,
        updatedAt,
        version: 2,
        description: valid.description,
      };
      for (const field of fields.split(" ")) {
        expect(row[field], field).toEqual(expected[field as keyof typeof expected]);
      }
    }
    const rest = await getJson(app, "/api/v1/tickets", key);
    expect(rest.status).toBe(200);
    expect(Object.keys(rest.body.data[0]).sort()).toEqual(
      ["created_at", "created_by", "equipment_id", "id", "priority", "status", "title"].sort(),
    );
  });

  test("a page writes each time as GET does: milliseconds truncated, whatever Postgres stored", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const created = await (await send(app, "/api/v1/tickets", { key, body: valid })).json();
    // microseconds that round up, and a time within the first millisecond of a day
    for (const [stored, shown] of [
      ["2026-03-01 23:59:59.999999+00", "2026-03-01T23:59:59.999Z"],
      ["2026-03-02 00:00:00.000400+00", "2026-03-02T00:00:00.000Z"],
    ] as const) {
      await db.database.db
        .update(tickets)
        .set({ createdAt: sql`${stored}::timestamptz`, updatedAt: sql`${stored}::timestamptz` })
        .where(eq(tickets.id, created.id));
      const listed = await getJson(app, "/api/v1/tickets", key);
      expect(listed.body.data[0].created_at).toBe(shown);
      const one = await (await send(app, `/api/v1/tickets/${created.id}`, { key })).json();
      expect(one.created_at).toBe(shown);
      const { json } = await graphql(app, key, "{ tickets { data { createdAt updatedAt } } }");
      expect(json.data.tickets.data[0]).toEqual({ createdAt: shown, updatedAt: shown });
    }
  });
}

describeEachDriver("tickets happy", suite);
