import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { outboxEvents, projectMember, storedProjects, subscribeAll } from "../helpers/projects.ts";

type Call = { method: string; path: (id: string) => string; body?: unknown; write: boolean };

const CALLS: Call[] = [
  { method: "GET", path: () => "/api/projects", write: false },
  { method: "GET", path: (id) => `/api/projects/${id}`, write: false },
  { method: "POST", path: () => "/api/projects", body: { name: "Intruder" }, write: true },
  { method: "PATCH", path: (id) => `/api/projects/${id}`, body: { name: "Hacked" }, write: true },
  { method: "DELETE", path: (id) => `/api/projects/${id}`, write: true },
];

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  /** An organization with one project ("Secret") and a subscription recording its events. */
  async function victim() {
    const owner = await projectMember(make);
    await subscribeAll(db.database, owner.organizationId);
    const response = await send(app, "/api/projects", {
      key: owner.key,
      body: { name: "Secret", description: "classified" },
    });
    return { ...owner, project: await response.json() };
  }

  async function expectIntact(v: Awaited<ReturnType<typeof victim>>) {
    const rows = await storedProjects(db.database, v.organizationId);
    expect(rows.map((r) => [r.id, r.name, r.description])).toEqual([
      [v.project.id, "Secret", "classified"],
    ]);
    const events = await outboxEvents(db.database, v.organizationId);
    expect(events.map((e) => e.type)).toEqual(["project.created"]);
  }

  const call = (c: Call, key: string | undefined, id: string) =>
    send(app, c.path(id), { method: c.method, key, body: c.body });

  test("every route without a key → 401 Missing API key, nothing changes", async () => {
    const v = await victim();
    for (const c of CALLS) {
      const response = await call(c, undefined, v.project.id);
      expect(response.status, `${c.method} ${c.path(":id")}`).toBe(401);
      expect(await response.json()).toEqual({ error: "Missing API key" });
    }
    await expectIntact(v);
  });

  test("another organization's project is 404 exactly like a missing one; it stays intact", async () => {
    const v = await victim();
    const other = await projectMember(make);
    for (const c of CALLS.filter((c) => c.path("x").endsWith("x"))) {
      const theirs = await call(c, other.key, v.project.id);
      const missing = await call(c, other.key, crypto.randomUUID());
      expect(theirs.status, c.method).toBe(404);
      expect(missing.status, c.method).toBe(404);
      expect(await theirs.json(), c.method).toEqual(await missing.json());
    }
    await expectIntact(v);
  });

  test("lists show only the caller's organization, with its own total", async () => {
    const v = await victim();
    const other = await projectMember(make);
    await send(app, "/api/projects", { key: other.key, body: { name: "Mine" } });
    const body = await (await send(app, "/api/projects", { key: other.key })).json();
    expect(body.data.map((p: { name: string }) => p.name)).toEqual(["Mine"]);
    expect(body.pagination.total).toBe(1);
    const theirs = await (await send(app, "/api/projects", { key: v.key })).json();
    expect(theirs.data.map((p: { name: string }) => p.name)).toEqual(["Secret"]);
  });

  test("a key without projects:read / projects:write → 403 naming the scope", async () => {
    const v = await victim();
    const readOnly = await make.member({
      organizationId: v.organizationId,
      scopes: ["projects:read"],
    });
    const writeOnly = await make.member({
      organizationId: v.organizationId,
      scopes: ["projects:write", "tickets:read"],
    });
    for (const c of CALLS) {
      const key = c.write ? readOnly.key : writeOnly.key;
      const response = await call(c, key, v.project.id);
      expect(response.status, c.method).toBe(403);
      expect(await response.json(), c.method).toEqual({
        error: `Missing scope: ${c.write ? "projects:write" : "projects:read"}`,
      });
    }
    await expectIntact(v);
  });

  test("a role without projects.view / projects.manage → 403 naming the permission", async () => {
    const v = await victim();
    await make.role(v.organizationId, "project-reader", "TECHNICIAN", ["projects.view"]);
    await make.role(v.organizationId, "no-projects", "ADMIN", ["tickets.view_all"]);
    const reader = await projectMember(make, {
      organizationId: v.organizationId,
      role: "project-reader",
    });
    const none = await projectMember(make, {
      organizationId: v.organizationId,
      role: "no-projects",
    });
    for (const c of CALLS) {
      const response = await call(c, c.write ? reader.key : none.key, v.project.id);
      expect(response.status, c.method).toBe(403);
      expect(await response.json(), c.method).toEqual({
        error: `Missing permission: ${c.write ? "projects.manage" : "projects.view"}`,
      });
    }
    // the reader can read what the role allows
    expect((await send(app, `/api/projects/${v.project.id}`, { key: reader.key })).status).toBe(
      200,
    );
    await expectIntact(v);
  });

  test("a revoked key is refused at once", async () => {
    const v = await victim();
    await app.services.apiKeys.revokeApiKey(v.apiKey.id);
    const response = await send(app, `/api/projects/${v.project.id}`, {
      key: v.key,
      method: "DELETE",
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "API key revoked" });
    await expectIntact(v);
  });

  test("GraphQL enforces the same scopes, permissions and organization isolation", async () => {
    const v = await victim();
    const other = await projectMember(make);
    const read = await graphql(app, other.key, `query($id: ID!) { project(id: $id) { name } }`, {
      id: v.project.id,
    });
    expect(read.json.errors?.[0]).toMatchObject({
      message: "Project not found",
      extensions: { code: "NOT_FOUND" },
    });
    expect(read.json.data).toBeNull();
    const del = await graphql(
      app,
      other.key,
      `mutation($id: ID!) { deleteProject(id: $id) { success } }`,
      { id: v.project.id },
    );
    expect(del.json.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const list = await graphql(app, other.key, "{ projects { data { name } } }");
    expect(list.json.data.projects.data).toEqual([]);

    const readOnly = await make.member({
      organizationId: v.organizationId,
      scopes: ["projects:read"],
    });
    const write = await graphql(
      app,
      readOnly.key,
      `mutation($id: ID!) { updateProject(id: $id, input: { name: "Hacked" }) { id } }`,
      { id: v.project.id },
    );
    expect(write.json.errors?.[0]).toMatchObject({
      message: "Missing scope: projects:write",
      extensions: { code: "FORBIDDEN", status: 403 },
    });
    const anonymous = await graphql(app, undefined, "{ projects { data { id } } }");
    expect(anonymous.response.status).toBe(401);
    const operator = await graphql(app, TEST_ADMIN_TOKEN, "{ projects { data { id } } }");
    expect(operator.json.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    await expectIntact(v);
  });

  test("an Idempotency-Key never replays another key's response", async () => {
    const a = await projectMember(make);
    const b = await projectMember(make);
    const headers = { "idempotency-key": "shared-key" };
    const first = await (
      await send(app, "/api/projects", { key: a.key, headers, body: { name: "Same" } })
    ).json();
    const second = await send(app, "/api/projects", {
      key: b.key,
      headers,
      body: { name: "Same" },
    });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    const body = await second.json();
    expect(body.id).not.toBe(first.id);
    expect(await storedProjects(db.database, b.organizationId)).toHaveLength(1);
  });

  test("names are stored and returned literally, markup and SQL included", async () => {
    const { key } = await projectMember(make);
    const name = `'; drop table projects; -- <script>alert(1)</script>`;
    const created = await (await send(app, "/api/projects", { key, body: { name } })).json();
    const read = await (await send(app, `/api/projects/${created.id}`, { key })).json();
    expect(read.name).toBe(name);
  });
}

describeEachDriver("projects (security)", suite);
