import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { tickets } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";

const SCOPES = ["tickets:read", "tickets:write"];
const valid = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

/** Reading, changing and commenting on one ticket (docs/api.md, docs/decisions.md §17). */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  async function ticketOf(key: string, body: Record<string, unknown> = valid) {
    const response = await send(app, "/api/v1/tickets", { key, body });
    return (await response.json()) as Record<string, unknown> & { id: string };
  }

  test("GET /tickets/{id} answers the whole ticket in snake_case with version 1 and its ETag", async () => {
    const { key, user } = await make.member({ scopes: SCOPES });
    const created = await ticketOf(key);
    const response = await send(app, `/api/v1/tickets/${created.id}`, { key });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"1"');
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        "assignee_id",
        "created_at",
        "created_by",
        "description",
        "equipment_id",
        "id",
        "priority",
        "status",
        "title",
        "updated_at",
        "version",
      ].sort(),
    );
    expect(body).toMatchObject({
      id: created.id,
      description: valid.description,
      status: "open",
      assignee_id: null,
      created_by: user.id,
      version: 1,
      updated_at: created.created_at,
    });
  });

  test("PATCH /tickets/{id} changes the given fields, counts a version and answers the new ETag", async () => {
    const { key, user } = await make.member({ scopes: SCOPES });
    const created = await ticketOf(key);
    const response = await send(app, `/api/v1/tickets/${created.id}`, {
      key,
      method: "PATCH",
      headers: { "if-match": '"1"' },
      body: { status: "in_progress", priority: "high", assigneeId: user.id },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe('"2"');
    expect(await response.json()).toMatchObject({
      status: "in_progress",
      priority: "high",
      assignee_id: user.id,
      title: valid.title,
      version: 2,
    });
    const [row] = await db.database.db.select().from(tickets).where(eq(tickets.id, created.id));
    expect(row).toMatchObject({ status: "in_progress", assigneeId: user.id, version: 2 });
  });

  test("every allowed status move succeeds: open → in_progress → resolved → in_progress → closed", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const { id } = await ticketOf(key);
    for (const status of ["in_progress", "resolved", "in_progress", "open", "resolved", "closed"]) {
      const response = await send(app, `/api/v1/tickets/${id}`, {
        key,
        method: "PATCH",
        body: { status },
      });
      expect({ status, code: response.status }).toEqual({ status, code: 200 });
    }
  });

  test("a PATCH that changes nothing keeps the version (no new ETag, no event)", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const { id } = await ticketOf(key);
    const response = await send(app, `/api/v1/tickets/${id}`, {
      key,
      method: "PATCH",
      body: { title: valid.title, status: "open" },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).version).toBe(1);
  });

  test("comments: POST answers 201 with the comment, GET lists them newest first", async () => {
    const { key, user } = await make.member({ scopes: SCOPES });
    const { id } = await ticketOf(key);
    const first = await send(app, `/api/v1/tickets/${id}/comments`, {
      key,
      body: { body: "First" },
    });
    expect(first.status).toBe(201);
    const comment = await first.json();
    expect(comment).toMatchObject({ ticketId: id, authorId: user.id, body: "First" });
    clock.advance(1000);
    await send(app, `/api/v1/tickets/${id}/comments`, { key, body: { body: "Second" } });
    const list = await send(app, `/api/v1/tickets/${id}/comments?limit=1`, { key });
    expect(list.status).toBe(200);
    const page = await list.json();
    expect(page.pagination).toEqual({ total: 2, limit: 1, offset: 0 });
    expect(page.data.map((c: { body: string }) => c.body)).toEqual(["Second"]);
    // a comment is a record of its own: the ticket's version stays (docs/decisions.md §17.5)
    const ticket = await send(app, `/api/v1/tickets/${id}`, { key });
    expect(ticket.headers.get("etag")).toBe('"1"');
  });

  test("two concurrent PATCHes with the same If-Match: exactly one wins, the other is 412", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const { id } = await ticketOf(key);
    const patch = (title: string) =>
      send(app, `/api/v1/tickets/${id}`, {
        key,
        method: "PATCH",
        headers: { "if-match": '"1"' },
        body: { title },
      });
    const answers = await Promise.all([patch("Title from A"), patch("Title from B")]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412]);
    const [row] = await db.database.db.select().from(tickets).where(eq(tickets.id, id));
    expect(row?.version).toBe(2);
    const winner = await answers.find((r) => r.status === 200)?.json();
    expect(row?.title).toBe(winner.title);
  });

  test("GraphQL: updateTicket with expectedVersion, then ticket(id) and ticketComments", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const { id } = await ticketOf(key);
    const { json } = await graphql(
      app,
      key,
      `mutation($id: ID!) { updateTicket(id: $id, input: { priority: critical }, expectedVersion: 1) { priority version } }`,
      { id },
    );
    expect(json.data?.updateTicket).toEqual({ priority: "critical", version: 2 });
    const read = await graphql(
      app,
      key,
      `query($id: ID!) {
        ticket(id: $id) { version }
        ticketComments(ticketId: $id, page: 2, limit: 10) { pagination { total offset } }
      }`,
      { id },
    );
    expect(read.json.data).toEqual({
      ticket: { version: 2 },
      ticketComments: { pagination: { total: 0, offset: 10 } },
    });
  });
}

describeEachDriver("ticket changes", suite);
