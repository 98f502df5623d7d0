import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { call, eventCount, VALID_TICKET, watchEvents } from "../helpers/lifecycle.ts";

const RW = ["tickets:read", "tickets:write", "webhooks:read", "webhooks:write"];

/**
 * Who may change a ticket (docs/decisions.md §17.6): the scope AND the permission; owners
 * without tickets.manage change only their own tickets' text, priority, and status to closed;
 * an assignee holds an administrator or technician seat.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  /** an organization whose admin made a ticket, and a second member with a role of `permissions` */
  async function team(permissions: string[], seat: "ADMIN" | "TECHNICIAN" | "USER" = "TECHNICIAN") {
    const admin = await make.member({ scopes: RW });
    await watchEvents(app, admin.key, ["ticket.created", "ticket.updated"]);
    await make.role(admin.organizationId, "helpdesk", seat, permissions);
    const member = await make.member({
      scopes: RW,
      role: "helpdesk",
      organizationId: admin.organizationId,
    });
    const theirs = await call(app, "/api/v1/tickets", { key: admin.key, body: VALID_TICKET });
    const own = await call(app, "/api/v1/tickets", { key: member.key, body: VALID_TICKET });
    return { admin, member, theirs: theirs.body.id as string, own: own.body.id as string };
  }
  const patch = (key: string, id: string, body: unknown) =>
    call(app, `/api/v1/tickets/${id}`, { key, method: "PATCH", body });

  test("without tickets:write → 403 Missing scope on PATCH and comments; without tickets:read on GET", async () => {
    const writer = await make.member({ scopes: ["tickets:read"] });
    const reader = await make.member({ scopes: ["tickets:write"] });
    const admin = await make.member({ scopes: RW, organizationId: writer.organizationId });
    const { body } = await call(app, "/api/v1/tickets", { key: admin.key, body: VALID_TICKET });
    expect(await patch(writer.key, body.id, { title: "Changed title" })).toMatchObject({
      status: 403,
      body: { error: "Missing scope: tickets:write" },
    });
    const comment = await call(app, `/api/v1/tickets/${body.id}/comments`, {
      key: writer.key,
      body: { body: "hi" },
    });
    expect(comment.body).toEqual({ error: "Missing scope: tickets:write" });
    const read = await call(app, `/api/v1/tickets/${body.id}`, { key: reader.key });
    expect(read).toMatchObject({ status: 403, body: { error: "Missing scope: tickets:read" } });
  });

  test("without tickets.manage: own ticket's title and priority, and status → closed only", async () => {
    const { admin, member, own } = await team(["tickets.view_all"]);
    expect((await patch(member.key, own, { title: "Reworded", priority: "low" })).status).toBe(200);
    for (const body of [{ status: "in_progress" }, { assigneeId: member.user.id }]) {
      const answer = await patch(member.key, own, body);
      expect({ body, ...answer.body, status: answer.status }).toEqual({
        body,
        status: 403,
        error: "Missing permission: tickets.manage",
      });
    }
    expect((await patch(member.key, own, { status: "closed" })).body.status).toBe("closed");
    expect(
      await eventCount(app, admin.organizationId),
      "two creations and two changes: four events",
    ).toBe(4);
  });

  test("without tickets.manage another member's ticket is 403 with tickets.view_all, 404 without", async () => {
    const viewer = await team(["tickets.view_all"]);
    expect(await patch(viewer.member.key, viewer.theirs, { status: "closed" })).toMatchObject({
      status: 403,
      body: { error: "Missing permission: tickets.manage" },
    });
    const blind = await team([]);
    expect(await patch(blind.member.key, blind.theirs, { status: "closed" })).toMatchObject({
      status: 404,
      body: { error: "Ticket not found" },
    });
    const read = await call(app, `/api/v1/tickets/${blind.theirs}/comments`, {
      key: blind.member.key,
    });
    expect(read.status).toBe(404);
  });

  test("tickets.manage assigns administrators and technicians, never a USER seat", async () => {
    const { admin, member, theirs } = await team(["tickets.manage", "tickets.view_all"]);
    expect((await patch(member.key, theirs, { assigneeId: admin.user.id })).status).toBe(200);
    expect((await patch(admin.key, theirs, { assigneeId: member.user.id })).status).toBe(200);
    await make.role(admin.organizationId, "staff", "USER", []);
    const user = await make.member({ role: "staff", organizationId: admin.organizationId });
    const refused = await patch(admin.key, theirs, { assigneeId: user.user.id });
    expect(refused.status).toBe(400);
    expect((await patch(admin.key, theirs, { assigneeId: null })).body.assignee_id).toBeNull();
  });

  test("GraphQL: a stale expectedVersion is PRECONDITION_FAILED and another organization's ticket NOT_FOUND", async () => {
    const { admin, theirs } = await team([]);
    const stale = await graphql(
      app,
      admin.key,
      `mutation($id: ID!) { updateTicket(id: $id, input: { title: "Renamed!" }, expectedVersion: 7) { id } }`,
      { id: theirs },
    );
    expect(stale.json.errors?.[0]).toMatchObject({
      message: "Version mismatch",
      extensions: { code: "PRECONDITION_FAILED", status: 412 },
    });
    const stranger = await make.member({ scopes: RW });
    const other = await graphql(app, stranger.key, `query($id: ID!) { ticket(id: $id) { id } }`, {
      id: theirs,
    });
    expect(other.json.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
  });
}

describeEachDriver("ticket changes: who may", suite);
