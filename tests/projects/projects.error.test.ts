import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { outboxEvents, projectMember, storedProjects, subscribeAll } from "../helpers/projects.ts";

const NOT_FOUND = { error: "Project not found" };

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  /** A member with one project ("Keep", "kept") and a subscription, so changes leave events. */
  async function arrange() {
    const member = await projectMember(make);
    await subscribeAll(db.database, member.organizationId);
    const response = await send(app, "/api/projects", {
      key: member.key,
      body: { name: "Keep", description: "kept" },
    });
    const project = await response.json();
    return { ...member, project };
  }

  /** Nothing but the arranged project and its creation event exist. */
  async function expectUnchanged(organizationId: string, project: { id: string }) {
    const rows = await storedProjects(db.database, organizationId);
    expect(rows.map((r) => [r.id, r.name, r.description])).toEqual([[project.id, "Keep", "kept"]]);
    const events = await outboxEvents(db.database, organizationId);
    expect(events.map((e) => e.type)).toEqual(["project.created"]);
  }

  test("POST with invalid bodies → 400 Validation failed naming the field; nothing is created", async () => {
    const { key, organizationId, project } = await arrange();
    const cases: [unknown, string[]][] = [
      [{}, ["name"]],
      [{ description: "no name" }, ["name"]],
      [{ name: "" }, ["name"]],
      [{ name: "   " }, ["name"]],
      [{ name: "n".repeat(101) }, ["name"]],
      [{ name: "🚀".repeat(101) }, ["name"]],
      [{ name: 42 }, ["name"]],
      [{ name: null }, ["name"]],
      [{ name: "ok", description: "d".repeat(1001) }, ["description"]],
      [{ name: "ok", description: null }, ["description"]],
      [{ name: "ok", description: 7 }, ["description"]],
      ['"just text"', ["name"]],
      [[], ["name"]],
    ];
    for (const [body, path] of cases) {
      const response = await send(app, "/api/projects", { key, body });
      const label = JSON.stringify(body).slice(0, 50);
      expect(response.status, label).toBe(400);
      const json = await response.json();
      expect(json.error, label).toBe("Validation failed");
      expect(
        json.details.map((d: { path: string[] }) => d.path),
        label,
      ).toContainEqual(path);
      for (const detail of json.details) expect(detail.message, label).toBeString();
    }
    await expectUnchanged(organizationId, project);
  });

  test("POST reports every field problem at once", async () => {
    const { key } = await projectMember(make);
    const response = await send(app, "/api/projects", {
      key,
      body: { name: "", description: "d".repeat(1001) },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Validation failed",
      details: [
        { path: ["name"], message: "Must be 1 to 100 characters" },
        { path: ["description"], message: "Must be 0 to 1000 characters" },
      ],
    });
  });

  test("POST with malformed JSON → 400 Malformed JSON body", async () => {
    const { key } = await projectMember(make);
    const response = await send(app, "/api/projects", { key, body: '{"name": "x",' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Malformed JSON body" });
  });

  test("PATCH with invalid bodies → 400; the project and the outbox are untouched", async () => {
    const { key, organizationId, project } = await arrange();
    const cases: [unknown, string[]][] = [
      [{}, ["body"]],
      [{ unknown: "field" }, ["body"]],
      [{ name: "" }, ["name"]],
      [{ name: "n".repeat(101) }, ["name"]],
      [{ name: null }, ["name"]],
      [{ description: "d".repeat(1001) }, ["description"]],
      [{ name: "valid", description: "d".repeat(1001) }, ["description"]],
    ];
    for (const [body, path] of cases) {
      const response = await send(app, `/api/projects/${project.id}`, {
        key,
        method: "PATCH",
        body,
      });
      const label = JSON.stringify(body).slice(0, 50);
      expect(response.status, label).toBe(400);
      const json = await response.json();
      expect(json.error, label).toBe("Validation failed");
      expect(
        json.details.map((d: { path: string[] }) => d.path),
        label,
      ).toContainEqual(path);
    }
    await expectUnchanged(organizationId, project);
  });

  test("PATCH {} says what is missing", async () => {
    const { key, project } = await arrange();
    const response = await send(app, `/api/projects/${project.id}`, {
      key,
      method: "PATCH",
      body: {},
    });
    expect(await response.json()).toEqual({
      error: "Validation failed",
      details: [{ path: ["body"], message: "Give name, description or both" }],
    });
  });

  test("list: page 0, limit 0 and 101, non-integers → 400 naming the parameter", async () => {
    const { key } = await projectMember(make);
    const cases: [string, string][] = [
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=1.5", "page"],
      ["page=abc", "page"],
      ["page=2147483648", "page"],
      ["page=99999999999999999999", "page"],
      ["page=", "page"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=-5", "limit"],
      ["limit=ten", "limit"],
    ];
    for (const [query, field] of cases) {
      const response = await send(app, `/api/projects?${query}`, { key });
      expect(response.status, query).toBe(400);
      const json = await response.json();
      expect(json.error, query).toBe("Validation failed");
      expect(json.details[0].path, query).toEqual([field]);
    }
  });

  test("unknown and malformed ids → 404 Project not found on GET, PATCH and DELETE", async () => {
    const { key, organizationId, project } = await arrange();
    for (const id of [crypto.randomUUID(), "not-a-uuid", "1", "%27%20or%201%3D1--"]) {
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { name: "Renamed" }],
        ["DELETE", undefined],
      ] as const) {
        const response = await send(app, `/api/projects/${id}`, { key, method, body });
        expect(response.status, `${method} ${id}`).toBe(404);
        expect(await response.json(), `${method} ${id}`).toEqual(NOT_FOUND);
      }
    }
    await expectUnchanged(organizationId, project);
  });

  test("deleting twice → the second is 404 and records no second event", async () => {
    const { key, organizationId, project } = await arrange();
    const path = `/api/projects/${project.id}`;
    expect((await send(app, path, { key, method: "DELETE" })).status).toBe(200);
    const again = await send(app, path, { key, method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual(NOT_FOUND);
    const events = await outboxEvents(db.database, organizationId);
    expect(events.map((e) => e.type)).toEqual(["project.created", "project.deleted"]);
  });

  test("Idempotency-Key reused with a different body → 409 and no second project", async () => {
    const { key, organizationId } = await projectMember(make);
    const headers = { "idempotency-key": "reused-key" };
    expect((await send(app, "/api/projects", { key, headers, body: { name: "A" } })).status).toBe(
      201,
    );
    const conflict = await send(app, "/api/projects", { key, headers, body: { name: "B" } });
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error).toBeString();
    const rows = await storedProjects(db.database, organizationId);
    expect(rows.map((r) => r.name)).toEqual(["A"]);
  });

  test("a failed create under an Idempotency-Key is not remembered: the fixed retry succeeds", async () => {
    const { key, organizationId } = await projectMember(make);
    const headers = { "idempotency-key": "retry-after-400" };
    const bad = await send(app, "/api/projects", { key, headers, body: { name: "" } });
    expect(bad.status).toBe(400);
    expect(await storedProjects(db.database, organizationId)).toEqual([]);
    // the corrected body under the same key: a 400 remembered would answer 409 (other body)
    const good = await send(app, "/api/projects", { key, headers, body: { name: "Fixed" } });
    expect(good.status, await good.clone().text()).toBe(201);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
    const created = await good.json();
    // from now on the key is remembered: the same request replays the project
    const again = await send(app, "/api/projects", { key, headers, body: { name: "Fixed" } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(created);
    const rows = await storedProjects(db.database, organizationId);
    expect(rows.map((r) => r.name)).toEqual(["Fixed"]);
  });

  test("GraphQL refuses the same input with VALIDATION_FAILED and NOT_FOUND", async () => {
    const { key, organizationId, project } = await arrange();
    const created = await graphql(
      app,
      key,
      `mutation { createProject(input: { name: "", description: "${"d".repeat(1001)}" }) { id } }`,
    );
    expect(created.json.errors?.[0]).toMatchObject({
      message: "Validation failed",
      extensions: {
        code: "VALIDATION_FAILED",
        status: 400,
        details: [
          { path: ["input", "name"], message: "Must be 1 to 100 characters" },
          { path: ["input", "description"], message: "Must be 0 to 1000 characters" },
        ],
      },
    });
    const page = await graphql(
      app,
      key,
      "{ projects(page: 0, limit: 101) { pagination { total } } }",
    );
    expect(page.json.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      details: [{ path: ["page"] }, { path: ["limit"] }],
    });
    const empty = await graphql(
      app,
      key,
      `mutation($id: ID!) { updateProject(id: $id, input: {}) { id } }`,
      { id: project.id },
    );
    expect(empty.json.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      details: [{ path: ["input"], message: "Give name, description or both" }],
    });
    for (const id of [crypto.randomUUID(), "nope"]) {
      const missing = await graphql(app, key, `query($id: ID!) { project(id: $id) { id } }`, {
        id,
      });
      expect(missing.json.errors?.[0]).toMatchObject({
        message: "Project not found",
        extensions: { code: "NOT_FOUND", status: 404 },
      });
    }
    await expectUnchanged(organizationId, project);
  });

  test("when the event cannot be written, the change is not kept (one transaction)", async () => {
    const { key, organizationId, project } = await arrange();
    // make every outbox insert fail, as a full disk or a broken constraint would
    await db.database.db.execute(sql`
      create function orgit_test_refuse_event() returns trigger language plpgsql as $$
      begin raise exception 'outbox unavailable'; end $$`);
    await db.database.db.execute(sql`
      create trigger orgit_test_refuse_event before insert on webhook_events
      for each row execute function orgit_test_refuse_event()`);
    try {
      const created = await send(app, "/api/projects", { key, body: { name: "Lost" } });
      expect(created.status).toBe(500);
      expect(await created.json()).toEqual({ error: "Internal server error" });
      const path = `/api/projects/${project.id}`;
      const patched = await send(app, path, { key, method: "PATCH", body: { name: "Lost" } });
      expect(patched.status).toBe(500);
      const deleted = await send(app, path, { key, method: "DELETE" });
      expect(deleted.status).toBe(500);
      const viaGraphql = await graphql(
        app,
        key,
        `mutation { createProject(input: { name: "Lost too" }) { id } }`,
      );
      expect(viaGraphql.json.errors?.[0]?.message).toBe("Internal server error");
      const read = await send(app, path, { key });
      expect(await read.json()).toMatchObject({ name: "Keep", description: "kept" });
      await expectUnchanged(organizationId, project);
    } finally {
      await db.database.db.execute(sql`drop trigger orgit_test_refuse_event on webhook_events`);
      await db.database.db.execute(sql`drop function orgit_test_refuse_event()`);
    }
    const after = await send(app, "/api/projects", { key, body: { name: "Works again" } });
    expect(after.status).toBe(201);
  });
}

describeEachDriver("projects (error)", suite);
