import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { outboxEvents, projectMember, storedProjects, subscribeAll } from "../helpers/projects.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function suite(driver: DriverName) {
  let clock = Date.parse("2026-03-01T10:00:00.000Z");
  const tick = (ms = 1000) => {
    clock += ms;
  };
  const { app, db, make } = useTestApp(driver, { now: () => new Date(clock) });

  const create = (key: string, body: unknown, headers?: Record<string, string>) =>
    send(app, "/api/projects", { key, body, headers });

  test("POST /api/projects → 201 with id, name, description, createdAt; row and event stored", async () => {
    const { key, organizationId } = await projectMember(make);
    await subscribeAll(db.database, organizationId);
    tick();
    const response = await create(key, { name: "Website relaunch", description: "Q3 work" });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "Website relaunch",
      description: "Q3 work",
      createdAt: new Date(clock).toISOString(),
    });
    const rows = await storedProjects(db.database, organizationId);
    expect(rows.map((r) => [r.id, r.name, r.description])).toEqual([
      [body.id, "Website relaunch", "Q3 work"],
    ]);
    const events = await outboxEvents(db.database, organizationId);
    expect(events).toEqual([
      {
        type: "project.created",
        payload: {
          type: "project.created",
          timestamp: new Date(clock).toISOString(),
          data: {
            project: {
              id: body.id,
              name: "Website relaunch",
              description: "Q3 work",
              createdAt: body.createdAt,
              updatedAt: body.createdAt,
            },
          },
        },
      },
    ]);
  });

  test("description defaults to an empty string; the name is trimmed", async () => {
    const { key } = await projectMember(make);
    const response = await create(key, { name: "  Spaced  " });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.description).toBe("");
    expect(body.name).toBe("Spaced");
  });

  test("boundary lengths are accepted: name of 1 and 100 characters, description of 1000", async () => {
    const { key } = await projectMember(make);
    for (const input of [
      { name: "x" },
      { name: "n".repeat(100), description: "d".repeat(1000) },
      // characters, not UTF-16 units: 100 emoji are 100 characters
      { name: "🚀".repeat(100) },
    ]) {
      const response = await create(key, input);
      expect(response.status, JSON.stringify(input).slice(0, 40)).toBe(201);
      expect((await response.json()).name).toBe(input.name);
    }
  });

  test("GET /api/projects/:id answers the project with updatedAt", async () => {
    const { key } = await projectMember(make);
    const created = await (await create(key, { name: "Read me", description: "d" })).json();
    const response = await send(app, `/api/projects/${created.id}`, { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ...created, updatedAt: created.createdAt });
  });

  test("GET /api/projects lists id, name, createdAt newest first with page/limit/total", async () => {
    const { key } = await projectMember(make);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      tick();
      ids.push((await (await create(key, { name: `P${i}`, description: "hidden" })).json()).id);
    }
    const newestFirst = [...ids].reverse();
    const first = await send(app, "/api/projects?page=1&limit=2", { key });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.pagination).toEqual({ page: 1, limit: 2, total: 5 });
    expect(body.data).toEqual([
      { id: newestFirst[0], name: "P4", createdAt: expect.stringMatching(ISO) },
      { id: newestFirst[1], name: "P3", createdAt: expect.stringMatching(ISO) },
    ]);
    const third = await (await send(app, "/api/projects?page=3&limit=2", { key })).json();
    expect(third.data.map((p: { id: string }) => p.id)).toEqual([newestFirst[4]]);
    const beyond = await (await send(app, "/api/projects?page=4&limit=2", { key })).json();
    expect(beyond).toEqual({ data: [], pagination: { page: 4, limit: 2, total: 5 } });
  });

  test("defaults are page 1 and limit 10; limit 1 and 100 are accepted", async () => {
    const { key } = await projectMember(make);
    for (let i = 0; i < 12; i++) await create(key, { name: `D${i}` });
    const defaults = await (await send(app, "/api/projects", { key })).json();
    expect(defaults.pagination).toEqual({ page: 1, limit: 10, total: 12 });
    expect(defaults.data).toHaveLength(10);
    const one = await (await send(app, "/api/projects?limit=1", { key })).json();
    expect(one.data).toHaveLength(1);
    const hundred = await (await send(app, "/api/projects?limit=100", { key })).json();
    expect(hundred.data).toHaveLength(12);
    expect(hundred.pagination).toEqual({ page: 1, limit: 100, total: 12 });
  });

  test("projects created at the same instant page stably: every one exactly once", async () => {
    const { key } = await projectMember(make);
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++) ids.add((await (await create(key, { name: `S${i}` })).json()).id);
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const body = await (await send(app, `/api/projects?page=${page}&limit=2`, { key })).json();
      seen.push(...body.data.map((p: { id: string }) => p.id));
    }
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(ids);
    expect(seen).toEqual([...ids].sort().reverse());
  });

  test("PATCH changes name, description or both and answers the full project", async () => {
    const { key, organizationId } = await projectMember(make);
    await subscribeAll(db.database, organizationId);
    const created = await (await create(key, { name: "Old", description: "old" })).json();
    const patch = (body: unknown) =>
      send(app, `/api/projects/${created.id}`, { key, method: "PATCH", body });

    tick(60_000);
    const renamed = await patch({ name: "New" });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toEqual({
      id: created.id,
      name: "New",
      description: "old",
      createdAt: created.createdAt,
      updatedAt: new Date(clock).toISOString(),
    });
    tick(60_000);
    expect(await (await patch({ description: "" })).json()).toMatchObject({
      name: "New",
      description: "",
    });
    tick(60_000);
    const both = await (await patch({ name: "Both", description: "both" })).json();
    expect(both).toMatchObject({ name: "Both", description: "both", createdAt: created.createdAt });
    expect(both.updatedAt).toBe(new Date(clock).toISOString());
    const read = await (await send(app, `/api/projects/${created.id}`, { key })).json();
    expect(read).toEqual(both);

    const events = await outboxEvents(db.database, organizationId);
    expect(events.map((e) => e.type)).toEqual([
      "project.created",
      "project.updated",
      "project.updated",
      "project.updated",
    ]);
    expect(events[3]?.payload.data.project).toEqual(both);
  });

  test("DELETE answers { success, message }; the project is gone and project.deleted is recorded", async () => {
    const { key, organizationId } = await projectMember(make);
    await subscribeAll(db.database, organizationId);
    const created = await (await create(key, { name: "Doomed", description: "bye" })).json();
    tick();
    const response = await send(app, `/api/projects/${created.id}`, { key, method: "DELETE" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: "Project deleted" });
    expect((await send(app, `/api/projects/${created.id}`, { key })).status).toBe(404);
    expect(await storedProjects(db.database, organizationId)).toHaveLength(0);
    const events = await outboxEvents(db.database, organizationId);
    expect(events.map((e) => e.type)).toEqual(["project.created", "project.deleted"]);
    expect(events[1]?.payload.data.project).toEqual({ ...created, updatedAt: created.createdAt });
  });

  test("Idempotency-Key: the same key and body replays the first 201 and creates one project", async () => {
    const { key, organizationId } = await projectMember(make);
    const headers = { "idempotency-key": "create-once-1" };
    const first = await create(key, { name: "Once" }, headers);
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const again = await create(key, { name: "Once" }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(await storedProjects(db.database, organizationId)).toHaveLength(1);
  });

  test("concurrent duplicates under one Idempotency-Key create one project and one event", async () => {
    const { key, organizationId } = await projectMember(make);
    await subscribeAll(db.database, organizationId);
    const headers = { "idempotency-key": "burst-1" };
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => create(key, { name: "Burst" }, headers)),
    );
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(1);
    expect(await storedProjects(db.database, organizationId)).toHaveLength(1);
    expect((await outboxEvents(db.database, organizationId)).map((e) => e.type)).toEqual([
      "project.created",
    ]);
  });

  test("any plan and seat may use projects when the role has the permissions", async () => {
    const free = await projectMember(make, { plan: "FREE", role: "technician" });
    expect((await create(free.key, { name: "Free plan" })).status).toBe(201);
    const org = await make.organization();
    await make.role(org.id, "project-viewer", "USER", ["projects.view"]);
    const viewer = await projectMember(make, { organizationId: org.id, role: "project-viewer" });
    expect((await send(app, "/api/projects", { key: viewer.key })).status).toBe(200);
  });

  test("OpenAPI documents every project route with its success and error responses", async () => {
    const doc = await (await send(app, "/swagger/json")).json();
    const responses = (path: string, method: string) =>
      Object.keys(doc.paths[path]?.[method]?.responses ?? {}).sort();
    expect(responses("/api/projects", "get")).toEqual(["200", "400", "401", "403", "429", "500"]);
    // a route with a body can also answer 413 (over 1 MiB) and 415 (not JSON)
    expect(responses("/api/projects", "post")).toEqual([
      "201",
      "400",
      "401",
      "403",
      "409",
      "413",
      "415",
      "429",
      "500",
    ]);
    expect(responses("/api/projects/{id}", "get")).toEqual([
      "200",
      "401",
      "403",
      "404",
      "429",
      "500",
    ]);
    expect(responses("/api/projects/{id}", "patch")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "413",
      "415",
      "429",
      "500",
    ]);
    expect(responses("/api/projects/{id}", "delete")).toEqual([
      "200",
      "401",
      "403",
      "404",
      "429",
      "500",
    ]);
    expect(doc.paths["/api/projects"].post.summary).toBe("Create a project");
  });

  test("GraphQL offers the same operations with the same results", async () => {
    const { key, organizationId } = await projectMember(make);
    await subscribeAll(db.database, organizationId);
    const fields = "id name description createdAt updatedAt";
    const created = await graphql(
      app,
      key,
      `mutation($input: CreateProjectInput!) { createProject(input: $input) { ${fields} } }`,
      { input: { name: "Over GraphQL" } },
    );
    expect(created.json.errors).toBeUndefined();
    const project = created.json.data.createProject;
    expect(project).toMatchObject({ name: "Over GraphQL", description: "" });
    const listed = await graphql(
      app,
      key,
      "{ projects(limit: 5) { data { id name } pagination { page limit total } } }",
    );
    expect(listed.json.data.projects).toEqual({
      data: [{ id: project.id, name: "Over GraphQL" }],
      pagination: { page: 1, limit: 5, total: 1 },
    });
    const one = await graphql(app, key, `query($id: ID!) { project(id: $id) { ${fields} } }`, {
      id: project.id,
    });
    expect(one.json.data.project).toEqual(project);
    tick();
    const updated = await graphql(
      app,
      key,
      `mutation($id: ID!) { updateProject(id: $id, input: { description: "via gql" }) { ${fields} } }`,
      { id: project.id },
    );
    expect(updated.json.data.updateProject).toEqual({
      ...project,
      description: "via gql",
      updatedAt: new Date(clock).toISOString(),
    });
    tick();
    const deleted = await graphql(
      app,
      key,
      `mutation($id: ID!) { deleteProject(id: $id) { success message } }`,
      { id: project.id },
    );
    expect(deleted.json.data.deleteProject).toEqual({ success: true, message: "Project deleted" });
    const events = await outboxEvents(db.database, organizationId);
    expect(events.map((e) => e.type)).toEqual([
      "project.created",
      "project.updated",
      "project.deleted",
    ]);
  });
}

describeEachDriver("projects (happy)", suite);
