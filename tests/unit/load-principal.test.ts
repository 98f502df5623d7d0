import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadKeyRecord, resolveRole } from "../../src/auth/load-principal.ts";
import { PERMISSIONS } from "../../src/auth/permissions.ts";
import type { Database } from "../../src/db/client.ts";
import { apiKeys, memberships, organizations, roles, users } from "../../src/db/schema/index.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * loadKeyRecord and resolveRole called directly on rows written by hand (src/auth/load-principal.ts):
 * every field of the record, the owner who left, a role
 * that no longer exists, custom roles, and the unknown scopes and permissions a row may hold.
 */
let database: Database;
let drop: () => Promise<void>;
const ids = {} as Record<"orgA" | "orgB" | "owner" | "left" | "other", string>;
const expiresAt = new Date("2031-02-03T04:05:06.000Z");

const addKey = async (values: {
  organizationId: string;
  userId: string;
  hash: string;
  scopes?: string[];
  expiresAt?: Date | null;
  revokedAt?: Date | null;
  graceEndsAt?: Date | null;
  allowedIps?: string[];
}) => {
  const [row] = await database.db
    .insert(apiKeys)
    .values({
      organizationId: values.organizationId,
      userId: values.userId,
      name: `key ${values.hash}`,
      keyHash: values.hash,
      prefix: "orgit_abcdef",
      scopes: values.scopes ?? ["tickets:read"],
      expiresAt: values.expiresAt ?? null,
      revokedAt: values.revokedAt ?? null,
      graceEndsAt: values.graceEndsAt ?? null,
      allowedIps: values.allowedIps ?? [],
    })
    .returning({ id: apiKeys.id });
  return (row as { id: string }).id;
};

beforeAll(async () => {
  const fresh = await migratedPglite();
  database = fresh.database;
  drop = fresh.drop;
  const db = database.db;
  const orgs = await db
    .insert(organizations)
    .values([
      { name: "Org A", plan: "ENTERPRISE", dailyQuota: 1234, unlimitedQuota: true },
      { name: "Org B", plan: "FREE" },
    ])
    .returning({ id: organizations.id });
  ids.orgA = orgs[0]?.id as string;
  ids.orgB = orgs[1]?.id as string;
  const people = await db
    .insert(users)
    .values(
      ["owner", "left", "other"].map((n) => ({
        email: `${n}@x.test`,
        firstName: n,
        lastName: "T",
      })),
    )
    .returning({ id: users.id });
  [ids.owner, ids.left, ids.other] = people.map((p) => p.id) as [string, string, string];
  await db.insert(roles).values([
    {
      organizationId: ids.orgA,
      name: "desk",
      seat: "TECHNICIAN",
      permissions: ["tickets.manage", "not.a.permission", "alerts.view"],
    },
    { organizationId: ids.orgB, name: "desk", seat: "ADMIN", permissions: ["users.manage"] },
  ]);
  await db.insert(memberships).values([
    { organizationId: ids.orgA, userId: ids.owner, role: "technician" },
    { organizationId: ids.orgB, userId: ids.owner, role: "desk" },
    { organizationId: ids.orgA, userId: ids.other, role: "desk" },
    { organizationId: ids.orgB, userId: ids.other, role: "vanished" },
  ]);
});

afterAll(() => drop());

test("an unknown hash is null", async () => {
  expect(await loadKeyRecord(database.db, "0".repeat(64))).toBeNull();
});

test("a key of a member: every field of the record and of its principal", async () => {
  const keyId = await addKey({
    organizationId: ids.orgA,
    userId: ids.owner,
    hash: "h-owner-a",
    scopes: ["tickets:read", "no:such-scope", "alerts:write"],
    expiresAt,
    revokedAt: new Date("2030-01-01T00:00:00.000Z"),
  });
  const record = await loadKeyRecord(database.db, "h-owner-a");
  expect(record).toEqual({
    keyId,
    organizationId: ids.orgA,
    revokedAt: new Date("2030-01-01T00:00:00.000Z"),
    expiresAt,
    graceEndsAt: null,
    principal: {
      organization: {
        id: ids.orgA,
        name: "Org A",
        plan: "ENTERPRISE",
        dailyQuota: 1234,
        unlimitedQuota: true,
      },
      user: { id: ids.owner, role: "technician" },
      seat: "TECHNICIAN",
      permissions: new Set([
        "equipment.view_all",
        "equipment.manage",
        "tickets.view_all",
        "tickets.manage",
        "alerts.view",
        "alerts.manage",
        "users.view",
        "projects.view",
        "projects.manage",
      ]),
      apiKey: {
        id: keyId,
        name: "key h-owner-a",
        scopes: ["tickets:read", "alerts:write"],
        expiresAt,
      },
    },
  });
});

test("the custom role is the key's organization's, not another one of the same name", async () => {
  await addKey({ organizationId: ids.orgB, userId: ids.owner, hash: "h-owner-b" });
  const inB = await loadKeyRecord(database.db, "h-owner-b");
  expect(inB?.organizationId).toBe(ids.orgB);
  expect(inB?.principal?.organization).toEqual({
    id: ids.orgB,
    name: "Org B",
    plan: "FREE",
    dailyQuota: null,
    unlimitedQuota: false,
  });
  expect(inB?.principal?.seat).toBe("ADMIN");
  expect(inB?.principal?.permissions).toEqual(new Set(["users.manage"]));
  expect(inB?.principal?.user).toEqual({ id: ids.owner, role: "desk" });

  await addKey({ organizationId: ids.orgA, userId: ids.other, hash: "h-other-a" });
  const inA = await loadKeyRecord(database.db, "h-other-a");
  expect(inA?.principal?.seat).toBe("TECHNICIAN");
  // the stored unknown permission is dropped
  expect(inA?.principal?.permissions).toEqual(new Set(["tickets.manage", "alerts.view"]));
  expect(inA?.revokedAt).toBeNull();
  expect(inA?.expiresAt).toBeNull();
  expect(inA?.principal?.apiKey.expiresAt).toBeNull();
});

test("an owner who left, or whose role no longer exists, has a record without principal", async () => {
  const leftKey = await addKey({ organizationId: ids.orgA, userId: ids.left, hash: "h-left" });
  expect(await loadKeyRecord(database.db, "h-left")).toEqual({
    keyId: leftKey,
    organizationId: ids.orgA,
    revokedAt: null,
    expiresAt: null,
    graceEndsAt: null,
    principal: null,
  });
  const goneRole = await addKey({
    organizationId: ids.orgB,
    userId: ids.other,
    hash: "h-vanished",
  });
  expect(await loadKeyRecord(database.db, "h-vanished")).toEqual({
    keyId: goneRole,
    organizationId: ids.orgB,
    revokedAt: null,
    expiresAt: null,
    graceEndsAt: null,
    principal: null,
  });
});

test("a rotated key carries its grace's end; a key with an allowlist, the test of an address", async () => {
  const graceEndsAt = new Date("2031-05-06T07:08:09.000Z");
  await addKey({
    organizationId: ids.orgA,
    userId: ids.owner,
    hash: "h-rotated",
    graceEndsAt,
    allowedIps: ["203.0.113.0/24", "2001:db8::1"],
  });
  const record = await loadKeyRecord(database.db, "h-rotated");
  expect(record?.graceEndsAt).toEqual(graceEndsAt);
  expect(record?.allows?.("203.0.113.9")).toBe(true);
  expect(record?.allows?.("2001:db8::1")).toBe(true);
  expect(record?.allows?.("198.51.100.1")).toBe(false);
  // without an allowlist any address may use the key: no test at all
  await addKey({ organizationId: ids.orgA, userId: ids.owner, hash: "h-open" });
  expect((await loadKeyRecord(database.db, "h-open"))?.allows).toBeUndefined();
});

test("resolveRole: built-in roles win, a custom one needs both seat and permissions", () => {
  expect(resolveRole("admin", "USER", ["tickets.manage"])).toEqual({
    seat: "ADMIN",
    permissions: new Set(PERMISSIONS),
  });
  expect(resolveRole("technician", null, null)?.seat).toBe("TECHNICIAN");
  expect(resolveRole("desk", "USER", ["alerts.view", "bogus"])).toEqual({
    seat: "USER",
    permissions: new Set(["alerts.view"]),
  });
  expect(resolveRole("desk", "TECHNICIAN", [])).toEqual({
    seat: "TECHNICIAN",
    permissions: new Set(),
  });
  expect(resolveRole("desk", null, ["alerts.view"])).toBeNull();
  expect(resolveRole("desk", "ADMIN", null)).toBeNull();
  expect(resolveRole("desk", null, null)).toBeNull();
  expect(resolveRole("constructor", null, null)).toBeNull();
});
