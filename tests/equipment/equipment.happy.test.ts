import { expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import {
  agentReleases,
  enrollmentTokens,
  equipment,
  equipmentUnits,
} from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

const SCOPES = ["equipment:read", "equipment:write"];
const DAY = 86_400_000;

function suite(driver: DriverName) {
  let clock = Date.parse("2026-06-01T12:00:00Z");
  const { app, db, make } = useTestApp(driver, {
    now: () => new Date(clock),
    env: { PUBLIC_BASE_URL: "https://orgit.example.com" },
  });

  const bulk = (key: string, body: unknown) =>
    send(app, "/api/v1/equipments/bulk-create", { key, body });

  test("bulk-create → 201 with requested/created/failed/items/errors and install links", async () => {
    const { key, organizationId, user } = await make.member({ scopes: SCOPES });
    const [unit] = await db.database.db
      .insert(equipmentUnits)
      .values({ organizationId, name: "HQ" })
      .returning();
    const response = await bulk(key, {
      items: [
        { name: "ws-01", type: "workstation" },
        {
          name: "srv-01",
          type: "server",
          platform: "linux",
          location: "Rack 4",
          unitId: unit?.id,
          managedBy: "infra-team",
          assignToUserId: user.id,
        },
      ],
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ requested: 2, created: 2, failed: 0, errors: [] });
    expect(body.items.map((i: { name: string }) => i.name)).toEqual(["ws-01", "srv-01"]);
    for (const item of body.items) {
      expect(Object.keys(item).sort()).toEqual(["id", "installUrl", "name"]);
      expect(item.installUrl).toMatch(/^https:\/\/orgit\.example\.com\/install\/[A-Za-z0-9]{40}$/);
    }
    const rows = await db.database.db
      .select()
      .from(equipment)
      .where(
        inArray(
          equipment.id,
          body.items.map((i: { id: string }) => i.id),
        ),
      );
    const server = rows.find((row) => row.name === "srv-01");
    expect(server).toMatchObject({
      organizationId,
      type: "server",
      platform: "linux",
      location: "Rack 4",
      unitId: unit?.id,
      managedBy: "infra-team",
      assignedUserId: user.id,
      status: "pending",
    });
    const tokens = await db.database.db
      .select()
      .from(enrollmentTokens)
      .where(eq(enrollmentTokens.organizationId, organizationId));
    expect(tokens).toHaveLength(2);
    for (const token of tokens) {
      expect(token.kind).toBe("bulk");
      expect(token.expiresAt.getTime()).toBe(clock + 7 * DAY);
      // only the hash is stored, never the token of the link
      expect(
        body.items.some((i: { installUrl: string }) => i.installUrl.includes(token.tokenHash)),
      ).toBe(false);
    }
  });

  test("valid items are created, invalid ones listed in errors with their index", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const response = await bulk(key, {
      items: [
        { name: "ok-1", type: "laptop" },
        { name: "bad-type", type: "toaster" },
        { name: "bad-unit", type: "server", unitId: crypto.randomUUID() },
        { name: "ok-2", type: "printer", platform: "other" },
        { name: "bad-user", type: "mobile", assignToUserId: crypto.randomUUID() },
      ],
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ requested: 5, created: 2, failed: 3 });
    expect(body.items.map((i: { name: string }) => i.name)).toEqual(["ok-1", "ok-2"]);
    expect(body.errors).toEqual([
      { index: 1, name: "bad-type", error: expect.stringContaining("type: Must be one of") },
      { index: 2, name: "bad-unit", error: "unitId: No unit with this id in your organization" },
      { index: 4, name: "bad-user", error: "assignToUserId: Not a member of your organization" },
    ]);
    expect(
      await db.database.db.$count(equipment, eq(equipment.organizationId, organizationId)),
    ).toBe(2);
  });

  test("GET /equipments: envelope with the contract's fields, newest first, status filter", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const created = await (
      await bulk(key, {
        items: [
          { name: "a", type: "laptop" },
          { name: "b", type: "server" },
        ],
      })
    ).json();
    clock += 1000;
    const later = await (
      await bulk(key, { items: [{ name: "c", type: "mobile", platform: "ios" }] })
    ).json();
    const { status, body } = await getJson(app, "/api/v1/equipments", key);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(body.data[0]).toEqual({
      id: later.items[0].id,
      name: "c",
      type: "mobile",
      platform: "ios",
      location: null,
      unitId: null,
      managedBy: null,
      assignedUserId: null,
      status: "pending",
      createdAt: new Date(clock).toISOString(),
    });
    expect(
      body.data
        .slice(1)
        .map((e: { id: string }) => e.id)
        .sort(),
    ).toEqual(created.items.map((i: { id: string }) => i.id).sort());
    await db.database.db
      .update(equipment)
      .set({ status: "online" })
      .where(eq(equipment.id, later.items[0].id));
    const online = await getJson(app, "/api/v1/equipments?status=online", key);
    expect(online.body.data.map((e: { id: string }) => e.id)).toEqual([later.items[0].id]);
    await expectStablePages(app, "/api/v1/equipments", key);
  });

  test("100 items in one call; a page of 200 costs a bounded number of queries", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    for (let batch = 0; batch < 2; batch++) {
      const items = Array.from({ length: 100 }, (_, i) => ({
        name: `dev-${batch}-${i}`,
        type: "other",
      }));
      const response = await bulk(key, { items });
      expect(response.status).toBe(201);
      expect((await response.json()).created).toBe(100);
    }
    await getJson(app, "/api/v1/equipments?limit=1", key);
    const before = db.database.stats.queries;
    const { body } = await getJson(app, "/api/v1/equipments?limit=200", key);
    expect(body.data).toHaveLength(200);
    // page + count; slack for background timers sharing the counter (N+1 would be 200 more)
    expect(db.database.stats.queries - before).toBeLessThanOrEqual(10);
  });

  test("install link: equipment, expiry and the newest stable release for its platform", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    await db.database.db.insert(agentReleases).values([
      {
        version: "1.0.0",
        platform: "linux",
        architecture: "x86_64",
        channel: "stable",
        downloadUrl: "https://dl.example.com/1.0.0",
        sha256: "a".repeat(64),
        releasedAt: new Date("2026-01-01T00:00:00Z"),
      },
      {
        version: "1.1.0",
        platform: "linux",
        architecture: "x86_64",
        channel: "stable",
        downloadUrl: "https://dl.example.com/1.1.0",
        sha256: "b".repeat(64),
        releasedAt: new Date("2026-02-01T00:00:00Z"),
      },
      {
        version: "1.2.0-beta",
        platform: "linux",
        architecture: "x86_64",
        channel: "beta",
        downloadUrl: "https://dl.example.com/1.2.0",
        sha256: "c".repeat(64),
        releasedAt: new Date("2026-03-01T00:00:00Z"),
      },
    ]);
    const body = await (
      await bulk(key, {
        items: [
          { name: "srv", type: "server", platform: "linux" },
          { name: "bare", type: "other" },
        ],
      })
    ).json();
    const [linux, bare] = body.items;
    for (let i = 0; i < 2; i++) {
      const response = await send(app, new URL(linux.installUrl).pathname);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        equipmentId: linux.id,
        equipmentName: "srv",
        platform: "linux",
        tokenKind: "bulk",
        expiresAt: new Date(clock + 7 * DAY).toISOString(),
        agentRelease: expect.objectContaining({ version: "1.1.0", channel: "stable" }),
      });
    }
    const none = await (await send(app, new URL(bare.installUrl).pathname)).json();
    expect(none.agentRelease).toBeNull();
  });

  test("GraphQL: equipments and bulkCreateEquipment with the same key", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const created = await graphql(
      app,
      key,
      `mutation { bulkCreateEquipment(input: { items: [{ name: "gql-1", type: "laptop" }, { name: "x", type: "nope" }], tokenKind: invitation }) { requested created failed items { id name installUrl } errors { index error path } } }`,
    );
    expect(created.json.data.bulkCreateEquipment).toMatchObject({
      requested: 2,
      created: 1,
      failed: 1,
      errors: [{ index: 1, path: ["items", "1", "type"] }],
    });
    const listed = await graphql(
      app,
      key,
      "{ equipments { data { id name status } pagination { total } } }",
    );
    expect(listed.json.data.equipments).toEqual({
      data: [
        { id: created.json.data.bulkCreateEquipment.items[0].id, name: "gql-1", status: "pending" },
      ],
      pagination: { total: 1 },
    });
  });
}

describeEachDriver("equipment happy", suite);
