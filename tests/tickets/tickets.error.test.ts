import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipment, tickets } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectPageBounds } from "../helpers/lists.ts";

const SCOPES = ["tickets:read", "tickets:write"];
const valid = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  async function ticketCount(organizationId: string) {
    return db.database.db.$count(tickets, eq(tickets.organizationId, organizationId));
  }

  async function expectInvalid(key: string, body: unknown, path: string[], organizationId: string) {
    const response = await send(app, "/api/v1/tickets", { key, body });
    const json = await response.json();
    expect({ status: response.status, error: json.error }).toEqual({
      status: 400,
      error: "Validation failed",
    });
    expect(json.details.map((d: { path: string[] }) => d.path)).toContainEqual(path);
    for (const detail of json.details) expect(typeof detail.message).toBe("string");
    expect(await ticketCount(organizationId)).toBe(0);
  }

  test("title length: 4 and 201 characters refused, 5 and 200 accepted", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    await expectInvalid(key, { ...valid, title: "a".repeat(4) }, ["title"], organizationId);
    await expectInvalid(key, { ...valid, title: "a".repeat(201) }, ["title"], organizationId);
    for (const n of [5, 200]) {
      const response = await send(app, "/api/v1/tickets", {
        key,
        body: { ...valid, title: "é".repeat(n) },
      });
      expect({ n, status: response.status }).toEqual({ n, status: 201 });
    }
  });

  test("description length: 9 and 5001 refused, 10 and 5000 accepted", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    await expectInvalid(
      key,
      { ...valid, description: "d".repeat(9) },
      ["description"],
      organizationId,
    );
    await expectInvalid(
      key,
      { ...valid, description: "d".repeat(5001) },
      ["description"],
      organizationId,
    );
    for (const n of [10, 5000]) {
      const response = await send(app, "/api/v1/tickets", {
        key,
        body: { ...valid, description: "d".repeat(n) },
      });
      expect({ n, status: response.status }).toEqual({ n, status: 201 });
    }
  });

  test("missing, mistyped and unknown-valued fields name their path", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    await expectInvalid(key, { description: valid.description }, ["title"], organizationId);
    await expectInvalid(key, { title: valid.title }, ["description"], organizationId);
    await expectInvalid(key, { ...valid, title: 12345 }, ["title"], organizationId);
    await expectInvalid(key, { ...valid, priority: "urgent" }, ["priority"], organizationId);
    await expectInvalid(
      key,
      { ...valid, equipmentId: "not-a-uuid" },
      ["equipmentId"],
      organizationId,
    );
    await expectInvalid(key, [valid], ["title"], organizationId);
  });

  test("an unknown equipmentId, or another organization's, → 400 with details", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const other = await make.member({ scopes: SCOPES });
    const [foreign] = await db.database.db
      .insert(equipment)
      .values({ organizationId: other.organizationId, name: "theirs", type: "server" })
      .returning();
    for (const equipmentId of [crypto.randomUUID(), foreign?.id]) {
      const response = await send(app, "/api/v1/tickets", { key, body: { ...valid, equipmentId } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: "Validation failed",
        details: [
          { path: ["equipmentId"], message: "No equipment with this id in your organization" },
        ],
      });
    }
    expect(await ticketCount(organizationId)).toBe(0);
  });

  test("a body that is not JSON (a form, plain text) → 415 and nothing created", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    for (const contentType of ["application/x-www-form-urlencoded", "text/plain"]) {
      const response = await send(app, "/api/v1/tickets", {
        key,
        body: "title=Printer+jams&description=The+printer+jams+again",
        headers: { "content-type": contentType },
      });
      expect({ contentType, status: response.status }).toEqual({ contentType, status: 415 });
      expect(await response.json()).toEqual({
        error: "Send the body as JSON with Content-Type: application/json",
      });
    }
    expect(await ticketCount(organizationId)).toBe(0);
  });

  test("malformed JSON → 400 and nothing created", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const response = await send(app, "/api/v1/tickets", { key, body: '{"title": "x",' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Malformed JSON body" });
    expect(await ticketCount(organizationId)).toBe(0);
  });

  test("list bounds: limit 0/201, offset -1, non-numbers → 400; 1 and 200 fine", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    await expectPageBounds(app, "/api/v1/tickets", key);
  });

  test("unknown filter values → 400 naming the filter", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    for (const [query, field, message] of [
      ["status=done", "status", "Must be one of: open, in_progress, resolved, closed"],
      ["priority=urgent", "priority", "Must be one of: low, medium, high, critical"],
    ]) {
      const response = await send(app, `/api/v1/tickets?${query}`, { key });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: "Validation failed",
        details: [{ path: [field as string], message }],
      });
    }
  });

  test("an offset beyond 32 bits → 400, not 500", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const response = await send(app, "/api/v1/tickets?offset=99999999999", { key });
    expect(response.status).toBe(400);
    expect((await response.json()).details[0].path).toEqual(["offset"]);
  });

  test("GraphQL gets the same validation: short title → Validation failed with details", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const { json } = await graphql(
      app,
      key,
      `mutation { createTicket(input: { title: "abc", description: "long enough text" }) { id } }`,
    );
    expect(json.errors?.[0].message).toBe("Validation failed");
    expect(json.errors?.[0].extensions).toMatchObject({
      status: 400,
      details: [{ path: ["title"], message: "Must be 5 to 200 characters" }],
    });
    const list = await graphql(app, key, "{ tickets(limit: 201) { data { id } } }");
    expect(list.json.errors?.[0].extensions.details).toEqual([
      { path: ["limit"], message: "Must be an integer from 1 to 200" },
    ]);
    expect(await ticketCount(organizationId)).toBe(0);
  });
}

describeEachDriver("tickets errors", suite);
