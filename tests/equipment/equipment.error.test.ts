import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipment } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectPageBounds } from "../helpers/lists.ts";

const SCOPES = ["equipment:read", "equipment:write"];
const DAY = 86_400_000;

function suite(driver: DriverName) {
  let clock = Date.parse("2026-06-01T12:00:00Z");
  const { app, db, make } = useTestApp(driver, { now: () => new Date(clock) });

  const bulk = (key: string, body: unknown) =>
    send(app, "/api/v1/equipments/bulk-create", { key, body });
  const stored = (organizationId: string) =>
    db.database.db.$count(equipment, eq(equipment.organizationId, organizationId));
  const items = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ name: `d${i}`, type: "other" }));

  test("0 and 101 items → 400 on items; 1 and 100 accepted", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    for (const n of [0, 101]) {
      const response = await bulk(key, { items: items(n) });
      expect({ n, status: response.status }).toEqual({ n, status: 400 });
      const body = await response.json();
      expect(body.error).toBe("Validation failed");
      expect(body.details[0].path).toEqual(["items"]);
    }
    expect(await stored(organizationId)).toBe(0);
    for (const n of [1, 100]) {
      const response = await bulk(key, { items: items(n) });
      expect({ n, status: response.status }).toEqual({ n, status: 201 });
    }
    expect(await stored(organizationId)).toBe(101);
  });

  test("no valid item → 400 with one detail per item and nothing written", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const other = await make.member({ scopes: SCOPES });
    const response = await bulk(key, {
      items: [
        { name: "   ", type: "laptop" },
        { name: "x".repeat(201), type: "laptop" },
        { name: "p", type: "laptop", platform: "beos" },
        { name: "l", type: "laptop", location: "y".repeat(501) },
        { name: "m", type: "laptop", managedBy: "z".repeat(201) },
        { name: "u", type: "laptop", unitId: "not-a-uuid" },
        { name: "o", type: "laptop", assignToUserId: other.user.id },
      ],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "Validation failed",
      details: [
        { path: ["items", "0", "name"], message: "Must be 1 to 200 characters" },
        { path: ["items", "1", "name"], message: "Must be 1 to 200 characters" },
        {
          path: ["items", "2", "platform"],
          message: "Must be one of: windows, macos, linux, ios, android, other",
        },
        { path: ["items", "3", "location"], message: "Must be at most 500 characters" },
        { path: ["items", "4", "managedBy"], message: "Must be at most 200 characters" },
        { path: ["items", "5", "unitId"], message: "No unit with this id in your organization" },
        { path: ["items", "6", "assignToUserId"], message: "Not a member of your organization" },
      ],
    });
    expect(await stored(organizationId)).toBe(0);
  });

  test("a malformed body (missing name/type, wrong types, bad tokenKind) → 400 naming fields", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    for (const [body, path] of [
      [{}, ["items"]],
      [{ items: [{ type: "laptop" }] }, ["items", "0", "name"]],
      [{ items: [{ name: "a" }] }, ["items", "0", "type"]],
      [{ items: [{ name: 5, type: "laptop" }] }, ["items", "0", "name"]],
      [{ items: items(1), tokenKind: "forever" }, ["tokenKind"]],
    ] as const) {
      const response = await bulk(key, body);
      expect(response.status).toBe(400);
      const json = await response.json();
      expect(json.details.map((d: { path: string[] }) => d.path)).toContainEqual([...path]);
    }
    // a string where the array belongs is refused too (Elysia reads it as characters: each fails)
    const stringItems = await bulk(key, { items: "many" });
    expect(stringItems.status).toBe(400);
    expect((await stringItems.json()).details[0].path[0]).toBe("items");
    const malformed = await bulk(key, "{ items: [");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "Malformed JSON body" });
    expect(await stored(organizationId)).toBe(0);
  });

  test("list bounds and an unknown status filter → 400", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    await expectPageBounds(app, "/api/v1/equipments", key);
    const response = await send(app, "/api/v1/equipments?status=broken", { key });
    expect(response.status).toBe(400);
    expect((await response.json()).details).toEqual([
      { path: ["status"], message: "Must be one of: pending, online, offline, retired" },
    ]);
  });

  test("install links: unknown → 404, expired → 410, invitation used once then 410", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    for (const token of ["nope", "A".repeat(40), "../../etc/passwd"]) {
      const response = await send(app, `/install/${encodeURIComponent(token)}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: "Install link not found" });
    }
    const invitation = await (await bulk(key, { items: items(1), tokenKind: "invitation" })).json();
    const path = new URL(invitation.items[0].installUrl).pathname;
    const first = await send(app, path);
    expect(first.status).toBe(200);
    expect((await first.json()).expiresAt).toBe(new Date(clock + 30 * DAY).toISOString());
    const second = await send(app, path);
    expect(second.status).toBe(410);
    expect(await second.json()).toEqual({ error: "Install link already used" });

    const reusable = await (await bulk(key, { items: items(1) })).json();
    const bulkPath = new URL(reusable.items[0].installUrl).pathname;
    expect((await send(app, bulkPath)).status).toBe(200);
    clock += 7 * DAY;
    const expired = await send(app, bulkPath);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ error: "Install link expired" });
  });

  test("an invitation link used by 10 installers at once works exactly once", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const invitation = await (await bulk(key, { items: items(1), tokenKind: "invitation" })).json();
    const path = new URL(invitation.items[0].installUrl).pathname;
    const statuses = (await Promise.all(Array.from({ length: 10 }, () => send(app, path)))).map(
      (r) => r.status,
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 410)).toHaveLength(9);
  });

  test("GraphQL: 101 items → Validation failed on items", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const { json } = await graphql(
      app,
      key,
      "mutation($input: BulkCreateEquipmentInput!) { bulkCreateEquipment(input: $input) { created } }",
      { input: { items: items(101) } },
    );
    expect(json.errors?.[0].extensions).toMatchObject({
      status: 400,
      details: [{ path: ["items"], message: "Must have 1 to 100 items (got 101)" }],
    });
    expect(await stored(organizationId)).toBe(0);
  });
}

describeEachDriver("equipment errors", suite);
