import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson, graphqlError } from "../helpers/lists.ts";

const valid = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("no key → 401 on both routes, nothing created", async () => {
    expect(await getJson(app, "/api/v1/tickets")).toMatchObject({
      status: 401,
      body: { error: "Missing API key" },
    });
    const response = await send(app, "/api/v1/tickets", { body: valid });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Missing API key" });
  });

  test("missing scope → 403 naming it (tickets:read to list, tickets:write to create)", async () => {
    const readOnly = await make.member({ scopes: ["tickets:read"] });
    const created = await send(app, "/api/v1/tickets", { key: readOnly.key, body: valid });
    expect(created.status).toBe(403);
    expect(await created.json()).toEqual({ error: "Missing scope: tickets:write" });
    expect((await getJson(app, "/api/v1/tickets", readOnly.key)).body.data).toEqual([]);

    const writeOnly = await make.member({ scopes: ["tickets:write"] });
    const listed = await getJson(app, "/api/v1/tickets", writeOnly.key);
    expect(listed).toMatchObject({ status: 403, body: { error: "Missing scope: tickets:read" } });
  });

  test("FREE plan and USER seat → 403", async () => {
    const free = await make.member({ plan: "FREE", scopes: ["tickets:read"] });
    expect(await getJson(app, "/api/v1/tickets", free.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
    const org = await make.organization();
    await make.role(org.id, "requester", "USER", ["tickets.view_all"]);
    const user = await make.member({
      organizationId: org.id,
      role: "requester",
      scopes: ["tickets:read"],
    });
    expect(await getJson(app, "/api/v1/tickets", user.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires an administrator or technician seat" },
    });
  });

  test("another organization's tickets are never listed", async () => {
    const mine = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    const theirs = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    await send(app, "/api/v1/tickets", { key: theirs.key, body: valid });
    const own = await (await send(app, "/api/v1/tickets", { key: mine.key, body: valid })).json();
    const { body } = await getJson(app, "/api/v1/tickets", mine.key);
    expect(body.data.map((t: { id: string }) => t.id)).toEqual([own.id]);
    expect(body.pagination.total).toBe(1);
  });

  test("without tickets.view_all the owner sees only tickets they created", async () => {
    const admin = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    await make.role(admin.organizationId, "desk", "TECHNICIAN", ["equipment.view_all"]);
    const desk = await make.member({
      organizationId: admin.organizationId,
      role: "desk",
      scopes: ["tickets:read", "tickets:write"],
    });
    const adminTicket = await (
      await send(app, "/api/v1/tickets", { key: admin.key, body: valid })
    ).json();
    const deskTicket = await (
      await send(app, "/api/v1/tickets", { key: desk.key, body: valid })
    ).json();
    expect(deskTicket.created_by).toBe(desk.user.id);
    const deskView = await getJson(app, "/api/v1/tickets", desk.key);
    expect(deskView.body.data.map((t: { id: string }) => t.id)).toEqual([deskTicket.id]);
    expect(deskView.body.pagination.total).toBe(1);
    const adminView = await getJson(app, "/api/v1/tickets", admin.key);
    expect(adminView.body.data.map((t: { id: string }) => t.id)).toEqual([
      deskTicket.id,
      adminTicket.id,
    ]);
  });

  test("GraphQL applies the same scope rule", async () => {
    const readOnly = await make.member({ scopes: ["tickets:read"] });
    const error = await graphqlError(
      app,
      readOnly.key,
      `mutation { createTicket(input: { title: "Over GraphQL", description: "Created through GraphQL" }) { id } }`,
    );
    expect(error).toMatchObject({ status: 403, message: "Missing scope: tickets:write" });
    const none = await make.member({ scopes: ["equipment:read"] });
    const list = await graphqlError(app, none.key, "{ tickets { data { id } } }");
    expect(list).toMatchObject({ status: 403, message: "Missing scope: tickets:read" });
  });
}

describeEachDriver("tickets security", suite);
