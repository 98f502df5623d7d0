import { afterAll, afterEach, beforeAll, expect, setSystemTime, test } from "bun:test";
import { eq } from "drizzle-orm";
import { refusedKeyOf } from "../../src/auth/audit-trail.ts";
import { AUTH_CHANNEL, KeyStore } from "../../src/auth/key-store.ts";
import { generateApiKey, sha256Hex } from "../../src/auth/keys.ts";
import type { Database } from "../../src/db/client.ts";
import {
  apiKeys,
  memberships,
  organizations,
  serviceInstances,
  users,
} from "../../src/db/schema/index.ts";
import { createLogger } from "../../src/logger.ts";
import { withLostConnection } from "../helpers/lost-connection.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * KeyStore driven directly over one PGlite (src/auth/key-store.ts):
 * each 401 message, the exact expiry instant, the cache's TTL, bound and invalidation, the
 * acknowledgement protocol between instances, the instance table, and last-use flushing.
 */
let database: Database;
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
let orgA: string;
let orgB: string;
let owner: string;
let stranger: string;
const logs: { level: string; msg: string; [k: string]: unknown }[] = [];
const logger = createLogger("debug", (line) => logs.push(JSON.parse(line)));
const warnings = () => logs.filter((l) => l.level === "warn").map((l) => l.msg);
const stores: KeyStore[] = [];
const T0 = new Date("2030-06-01T12:00:00.000Z");
let clock = T0;

const newStore = (db: Database = database) => {
  const store = new KeyStore(db, logger, () => clock);
  stores.push(store);
  return store;
};
// biome-ignore lint/suspicious/noExplicitAny: the cache is private; the bound is tested on it
const cacheOf = (store: KeyStore) => (store as any).cache as Map<string, unknown>;

const addKey = async (values: {
  organizationId?: string;
  userId?: string;
  expiresAt?: Date;
  graceEndsAt?: Date;
  allowedIps?: string[];
}) => {
  const secret = generateApiKey();
  const [row] = await database.db
    .insert(apiKeys)
    .values({
      organizationId: values.organizationId ?? orgA,
      userId: values.userId ?? owner,
      name: "k",
      keyHash: sha256Hex(secret),
      prefix: secret.slice(0, 12),
      scopes: ["tickets:read"],
      expiresAt: values.expiresAt ?? null,
      graceEndsAt: values.graceEndsAt ?? null,
      allowedIps: values.allowedIps ?? [],
    })
    .returning({ id: apiKeys.id });
  return { secret, id: (row as { id: string }).id };
};
const revoke = (id: string) =>
  database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, id));
const refusal = async (run: Promise<unknown>) =>
  run.then(
    () => "accepted",
    (e: { status: number; message: string }) => `${e.status} ${e.message}`,
  );

beforeAll(async () => {
  fresh = await migratedPglite();
  database = fresh.database;
  const orgs = await database.db
    .insert(organizations)
    .values([{ name: "A" }, { name: "B" }])
    .returning({ id: organizations.id });
  [orgA, orgB] = orgs.map((o) => o.id) as [string, string];
  const people = await database.db
    .insert(users)
    .values([
      { email: "owner@x.test", firstName: "O", lastName: "W" },
      { email: "stranger@x.test", firstName: "S", lastName: "T" },
    ])
    .returning({ id: users.id });
  [owner, stranger] = people.map((p) => p.id) as [string, string];
  await database.db.insert(memberships).values([
    { organizationId: orgA, userId: owner, role: "admin" },
    { organizationId: orgB, userId: owner, role: "technician" },
  ]);
});

afterEach(async () => {
  setSystemTime();
  clock = T0;
  for (const store of stores.splice(0)) await store.stop();
  await database.db.delete(serviceInstances);
  logs.length = 0;
});

afterAll(() => fresh.drop());

test("each refusal has its own 401 message; a member's key gives its principal", async () => {
  const store = newStore();
  expect(await refusal(store.authenticate(undefined))).toBe("401 Missing API key");
  expect(await refusal(store.authenticate(""))).toBe("401 Missing API key");
  const queries = database.stats.queries;
  expect(await refusal(store.authenticate("orgit_nope"))).toBe("401 Invalid API key");
  const typo = generateApiKey().replace(/.$/, (c) => (c === "0" ? "1" : "0"));
  expect(await refusal(store.authenticate(typo))).toBe("401 Invalid API key");
  // refused on its checksum: neither the database nor the cache is asked
  expect(database.stats.queries).toBe(queries);
  expect(cacheOf(store).size).toBe(0);
  expect(await refusal(store.authenticate(generateApiKey()))).toBe("401 Invalid API key");
  const revoked = await addKey({});
  await revoke(revoked.id);
  expect(await refusal(store.authenticate(revoked.secret))).toBe("401 API key revoked");
  const left = await addKey({ userId: stranger });
  expect(await refusal(store.authenticate(left.secret))).toBe(
    "401 API key owner is no longer a member of this organization",
  );
  const good = await addKey({ organizationId: orgB });
  const principal = await store.authenticate(good.secret);
  expect(principal.organization.id).toBe(orgB);
  expect(principal.user).toEqual({ id: owner, role: "technician" });
  expect(principal.apiKey.id).toBe(good.id);
});

test("a key is refused from the exact instant it expires", async () => {
  const store = newStore();
  const key = await addKey({ expiresAt: new Date(T0.getTime() + 1000) });
  clock = new Date(T0.getTime() + 999);
  expect((await store.authenticate(key.secret)).apiKey.id).toBe(key.id);
  clock = new Date(T0.getTime() + 1000);
  expect(await refusal(store.authenticate(key.secret))).toBe("401 API key expired");
  clock = new Date(T0.getTime() + 1001);
  expect(await refusal(store.authenticate(key.secret))).toBe("401 API key expired");
});

test("a cached lookup serves for 60 s, then the row is read again", async () => {
  const start = Date.now();
  setSystemTime(new Date(start));
  const store = newStore();
  const key = await addKey({});
  await store.authenticate(key.secret);
  await revoke(key.id); // behind the store's back: no announcement
  setSystemTime(new Date(start + 59_999));
  expect((await store.authenticate(key.secret)).apiKey.id).toBe(key.id);
  setSystemTime(new Date(start + 60_000));
  expect(await refusal(store.authenticate(key.secret))).toBe("401 API key revoked");
  // an unknown secret is cached as unknown too
  const later = generateApiKey();
  expect(await refusal(store.authenticate(later))).toBe("401 Invalid API key");
  expect(cacheOf(store).has(sha256Hex(later))).toBe(true);
});

test("a key read as unknown up to 10 s after a database connection closed is not cached as unknown: the next request reads it again", async () => {
  const start = Date.now();
  setSystemTime(new Date(start));
  const lossy = withLostConnection(database, apiKeys);
  const store = newStore(lossy.database);
  const key = await addKey({});
  // a connection closed 9,999 ms ago, and the key's read answers no row although it exists
  lossy.lose({ at: start - 9_999 });
  expect(await refusal(store.authenticate(key.secret))).toBe("401 Invalid API key");
  expect(cacheOf(store).has(sha256Hex(key.secret))).toBe(false);
  // the next request reads it again and gets the right answer
  expect((await store.authenticate(key.secret)).apiKey.id).toBe(key.id);

  // 10 s after the close, an unknown key is cached as unknown, as without any close
  const other = await addKey({});
  lossy.lose({ at: start - 10_000 });
  expect(await refusal(store.authenticate(other.secret))).toBe("401 Invalid API key");
  expect(await refusal(store.authenticate(other.secret))).toBe("401 Invalid API key");
  expect(cacheOf(store).get(sha256Hex(other.secret))).toMatchObject({ record: null });
  // so a wrong "no row" without a close before it still refuses the key for the TTL
  const third = await addKey({});
  lossy.answerWrongly();
  expect(await refusal(store.authenticate(third.secret))).toBe("401 Invalid API key");
  setSystemTime(new Date(start + 59_999));
  expect(await refusal(store.authenticate(third.secret))).toBe("401 Invalid API key");
  setSystemTime(new Date(start + 60_000));
  expect((await store.authenticate(third.secret)).apiKey.id).toBe(third.id);
});

test("a key found just after a connection closed is cached as usual", async () => {
  const lossy = withLostConnection(database, apiKeys);
  const store = newStore(lossy.database);
  const key = await addKey({});
  lossy.lose({ wrongAnswer: false });
  expect((await store.authenticate(key.secret)).apiKey.id).toBe(key.id);
  expect(cacheOf(store).get(sha256Hex(key.secret))).toMatchObject({ record: { keyId: key.id } });
});

test("authenticateNow answers a cached key at once, and a first or unknown one by promise", async () => {
  const store = newStore();
  const key = await addKey({});
  const first = store.authenticateNow(key.secret, "10.0.0.1");
  expect(first).toBeInstanceOf(Promise); // read from the database
  expect((await first).apiKey.id).toBe(key.id);
  const cached = store.authenticateNow(key.secret, "10.0.0.1");
  expect(cached).not.toBeInstanceOf(Promise);
  expect((cached as Awaited<typeof first>).apiKey.id).toBe(key.id);
  // a cached refusal is a throw, with the same message as the promise's
  await revoke(key.id);
  await store.announce({ kind: "key", id: key.id });
  await store.authenticate(key.secret).catch(() => undefined); // cached again, as revoked
  expect(() => store.authenticateNow(key.secret)).toThrow("API key revoked");
  expect(() => store.authenticateNow(undefined)).toThrow("Missing API key");
  expect(await refusal(store.authenticate(key.secret))).toBe("401 API key revoked");
});

test("the cache holds at most 10,000 entries and drops the oldest first", async () => {
  const store = newStore();
  const key = await addKey({});
  await store.authenticate(key.secret);
  const cache = cacheOf(store);
  for (let i = 0; cache.size < 9_999; i++) cache.set(`filler-${i}`, { record: null, loadedAt: 0 });
  const one = generateApiKey();
  await refusal(store.authenticate(one));
  expect(cache.size).toBe(10_000);
  expect(cache.has(sha256Hex(key.secret))).toBe(true);
  await refusal(store.authenticate(generateApiKey()));
  expect(cache.size).toBe(10_000);
  expect(cache.has(sha256Hex(key.secret))).toBe(false);
  expect(cache.has(sha256Hex(one))).toBe(true);
});

test("an announced key change drops that key only; an organization change drops its keys", async () => {
  const store = newStore();
  await store.start();
  const [a1, a2, b1] = [await addKey({}), await addKey({}), await addKey({ organizationId: orgB })];
  for (const k of [a1, a2, b1]) await store.authenticate(k.secret);
  for (const k of [a1, a2, b1]) await revoke(k.id);
  await store.announce({ kind: "key", id: a1.id });
  expect(await refusal(store.authenticate(a1.secret))).toBe("401 API key revoked");
  expect(await refusal(store.authenticate(a2.secret))).toBe("accepted");
  expect(await refusal(store.authenticate(b1.secret))).toBe("accepted");
  await store.announce({ kind: "organization", id: orgB });
  expect(await refusal(store.authenticate(a2.secret))).toBe("accepted");
  expect(await refusal(store.authenticate(b1.secret))).toBe("401 API key revoked");
  await store.announce({ kind: "organization", id: orgA });
  expect(await refusal(store.authenticate(a2.secret))).toBe("401 API key revoked");
  expect(warnings()).toEqual([]);
});

test("another instance drops the entry on the notification and acknowledges it", async () => {
  const other = await fresh.openAnother();
  const here = newStore();
  const there = newStore(other);
  await here.start();
  await there.start();
  const key = await addKey({});
  await there.authenticate(key.secret);
  await revoke(key.id);
  await here.announce({ kind: "key", id: key.id });
  // a missing acknowledgement would have logged a warning after 2 s
  expect(await refusal(there.authenticate(key.secret))).toBe("401 API key revoked");
  expect(warnings()).toEqual([]);
});

test("a live instance that never acknowledges is waited for 2 s; one silent for 15 s is not", async () => {
  const store = newStore();
  await store.start();
  const silent = crypto.randomUUID();
  await database.db
    .insert(serviceInstances)
    .values({ id: silent, seenAt: new Date(Date.now() - 15_500) });
  await store.announce({ kind: "key", id: crypto.randomUUID() });
  expect(warnings()).toEqual([]);

  const mute = crypto.randomUUID();
  await database.db
    .insert(serviceInstances)
    .values({ id: mute, seenAt: new Date(Date.now() - 13_000) });
  const started = performance.now();
  await store.announce({ kind: "key", id: "k1" });
  expect(performance.now() - started).toBeGreaterThan(1_900);
  const warning = logs.find((l) => l.level === "warn");
  expect(warning?.msg).toBe("auth change not acknowledged by every instance in time");
  expect(warning?.change).toEqual({ kind: "key", id: "k1" });
  expect(warning?.missing).toEqual([mute]);
});

test("start registers the instance and forgets ones silent for a day; stop deregisters", async () => {
  const day = 86_400_000;
  const [old, recent] = [crypto.randomUUID(), crypto.randomUUID()];
  await database.db.insert(serviceInstances).values([
    { id: old, seenAt: new Date(Date.now() - day - 60_000) },
    { id: recent, seenAt: new Date(Date.now() - day + 60_000) },
  ]);
  const store = newStore();
  const ids = async () =>
    (await database.db.select({ id: serviceInstances.id }).from(serviceInstances))
      .map((r) => r.id)
      .sort();
  await store.start();
  const mine = (await ids()).filter((id) => id !== recent);
  expect(mine).toHaveLength(1);
  expect(await ids()).toEqual([recent, mine[0] as string].sort());
  // the heartbeat moves seenAt forward
  await database.db
    .update(serviceInstances)
    .set({ seenAt: new Date(Date.now() - 10 * 60_000) })
    .where(eq(serviceInstances.id, mine[0] as string));
  // biome-ignore lint/suspicious/noExplicitAny: the heartbeat is private and runs every 5 s
  await (store as any).heartbeat();
  const [row] = await database.db
    .select({ seenAt: serviceInstances.seenAt })
    .from(serviceInstances)
    .where(eq(serviceInstances.id, mine[0] as string));
  expect(Date.now() - (row?.seenAt.getTime() ?? 0)).toBeLessThan(60_000);
  await store.stop();
  expect(await ids()).toEqual([recent]);
  expect(warnings()).toEqual([]);
});

test("start drops what was cached before listening; a malformed notification drops everything", async () => {
  const store = newStore();
  const key = await addKey({});
  await store.authenticate(key.secret);
  await revoke(key.id);
  await store.start();
  expect(await refusal(store.authenticate(key.secret))).toBe("401 API key revoked");

  const other = await addKey({});
  await store.authenticate(other.secret);
  await revoke(other.id);
  await database.notify(AUTH_CHANNEL, "{not json");
  const deadline = Date.now() + 5_000;
  while (cacheOf(store).size > 0 && Date.now() < deadline) await Bun.sleep(10);
  expect(await refusal(store.authenticate(other.secret))).toBe("401 API key revoked");
  expect(logs.find((l) => l.level === "warn")).toMatchObject({
    msg: "ignored malformed auth notification",
    payload: "{not json",
  });
});

test("timers: last use is flushed and the heartbeat sent every 5 s, both stopped by stop()", async () => {
  const registered: { ms: number; run: () => void }[] = [];
  const cleared: unknown[] = [];
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  const store = newStore();
  try {
    // biome-ignore lint/suspicious/noExplicitAny: captures the store's two intervals
    (globalThis as any).setInterval = (run: () => void, ms: number) => {
      const timer = realSet(() => {}, 1_000_000);
      registered.push({ ms, run });
      return timer;
    };
    await store.start();
  } finally {
    globalThis.setInterval = realSet;
  }
  expect(registered.map((r) => r.ms)).toEqual([5_000, 5_000]);
  const key = await addKey({});
  clock = new Date("2030-07-01T00:00:00.000Z");
  await store.authenticate(key.secret);
  registered[0]?.run();
  // the second timer is the heartbeat
  await database.db.update(serviceInstances).set({ seenAt: new Date(Date.now() - 600_000) });
  registered[1]?.run();
  const seen = async () =>
    (await database.db.select().from(serviceInstances))[0]?.seenAt.getTime() ?? 0;
  const heartbeatDeadline = Date.now() + 5_000;
  while ((await seen()) < Date.now() - 60_000 && Date.now() < heartbeatDeadline) {
    await Bun.sleep(10);
  }
  expect(await seen()).toBeGreaterThan(Date.now() - 60_000);
  const lastUsed = async () =>
    (await database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]?.lastUsedAt;
  const deadline = Date.now() + 5_000;
  while (!(await lastUsed()) && Date.now() < deadline) await Bun.sleep(10);
  expect(await lastUsed()).toEqual(clock);
  try {
    // biome-ignore lint/suspicious/noExplicitAny: counts the timers stop() clears
    (globalThis as any).clearInterval = (timer: unknown) => {
      cleared.push(timer);
      realClear(timer as ReturnType<typeof setInterval>);
    };
    await store.stop();
  } finally {
    globalThis.clearInterval = realClear;
  }
  expect(cleared).toHaveLength(2);
});

test("last use: one statement per flush, never moved backwards, nothing sent when idle", async () => {
  const store = newStore();
  const key = await addKey({});
  const before = database.stats.queries;
  await store.flushLastUsed();
  expect(database.stats.queries).toBe(before);
  clock = new Date("2030-08-01T00:00:00.000Z");
  await store.authenticate(key.secret);
  await store.flushLastUsed();
  clock = new Date("2030-07-01T00:00:00.000Z");
  await store.authenticate(key.secret);
  await store.flushLastUsed();
  const [row] = await database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
  expect(row?.lastUsedAt).toEqual(new Date("2030-08-01T00:00:00.000Z"));
  expect(warnings()).toEqual([]);
});

test("database failures are logged, not thrown: last use, heartbeat, acknowledgement, stop", async () => {
  const broken = await fresh.openAnother();
  const failing: Database = {
    ...broken,
    db: broken.db,
    notify: async () => {
      throw new Error("notify down");
    },
  };
  const store = newStore(failing);
  await store.start();
  const key = await addKey({});
  await store.authenticate(key.secret);
  await database.notify(AUTH_CHANNEL, JSON.stringify({ kind: "key", id: "x", nonce: "n" }));
  const deadline = Date.now() + 5_000;
  while (warnings().length === 0 && Date.now() < deadline) await Bun.sleep(10);
  expect(warnings()).toEqual(["could not acknowledge auth change"]);
  // a store that never started has nothing to unlisten and stops quietly
  await newStore().stop();
  expect(warnings()).toEqual(["could not acknowledge auth change"]);
  logs.length = 0;
  // biome-ignore lint/suspicious/noExplicitAny: replaces the handle's queries with failures
  (failing as any).db = new Proxy(broken.db, {
    get: () => () => {
      throw new Error("database down");
    },
  });
  // biome-ignore lint/suspicious/noExplicitAny: the heartbeat is private
  await (store as any).heartbeat();
  await store.stop();
  stores.splice(stores.indexOf(store), 1);
  expect(warnings()).toEqual([
    "instance heartbeat failed",
    "could not record API key last use",
    "could not deregister this instance",
  ]);
  expect(logs.map((l) => l.error)).toEqual([
    "Error: database down",
    "Error: database down",
    "Error: database down",
  ]);
});

test("the acknowledgement failure is logged with its error", async () => {
  const other = await fresh.openAnother();
  const store = newStore({
    ...other,
    notify: async () => {
      throw new Error("notify down");
    },
  });
  await store.start();
  await database.notify(AUTH_CHANNEL, JSON.stringify({ kind: "key", id: "x", nonce: "n" }));
  const deadline = Date.now() + 5_000;
  while (warnings().length === 0 && Date.now() < deadline) await Bun.sleep(10);
  expect(logs.find((l) => l.level === "warn")).toMatchObject({
    msg: "could not acknowledge auth change",
    error: "Error: notify down",
  });
});

test("without a clock of its own the store uses the wall clock", async () => {
  const store = new KeyStore(database, logger);
  stores.push(store);
  const past = await addKey({ expiresAt: new Date(Date.now() - 1_000) });
  const future = await addKey({ expiresAt: new Date(Date.now() + 3_600_000) });
  expect(await refusal(store.authenticate(past.secret))).toBe("401 API key expired");
  expect(await refusal(store.authenticate(future.secret))).toBe("accepted");
});

test("an instance whose sessions are gone is not waited for, however recent its heartbeat", async () => {
  const dead = crypto.randomUUID();
  const store = newStore({
    ...database,
    liveInstances: async (ids: string[]) => new Set(ids.filter((id) => id !== dead)),
  });
  await store.start();
  await database.db.insert(serviceInstances).values({ id: dead, seenAt: new Date() });
  await store.announce({ kind: "organization", id: orgA });
  expect(warnings()).toEqual([]);
});

test("an announcement passes over cached unknown secrets; last use of several keys in one flush", async () => {
  const store = newStore();
  await store.start();
  expect(await refusal(store.authenticate(generateApiKey()))).toBe("401 Invalid API key");
  await store.announce({ kind: "key", id: crypto.randomUUID() });
  await store.announce({ kind: "organization", id: orgA });
  expect(cacheOf(store).size).toBe(1);
  const [k1, k2] = [await addKey({}), await addKey({ organizationId: orgB })];
  clock = new Date("2030-09-09T09:09:09.000Z");
  await store.authenticate(k1.secret);
  await store.authenticate(k2.secret);
  await store.flushLastUsed();
  const rows = await database.db.select().from(apiKeys);
  expect(rows.find((r) => r.id === k1.id)?.lastUsedAt).toEqual(clock);
  expect(rows.find((r) => r.id === k2.id)?.lastUsedAt).toEqual(clock);
  expect(warnings()).toEqual([]);
});

test("a rotated secret works until its grace ends and is refused from that instant", async () => {
  const store = newStore();
  const key = await addKey({ graceEndsAt: new Date(T0.getTime() + 1000) });
  clock = new Date(T0.getTime() + 999);
  expect((await store.authenticate(key.secret)).apiKey.id).toBe(key.id);
  clock = new Date(T0.getTime() + 1000);
  expect(await refusal(store.authenticate(key.secret))).toBe("401 API key rotated");
  // rotation is checked before expiry: a rotated key that also expired says "rotated"
  const both = await addKey({ graceEndsAt: T0, expiresAt: T0 });
  expect(await refusal(store.authenticate(both.secret))).toBe("401 API key rotated");
});

test("an old secret used in its grace is recorded with the address; other keys are not", async () => {
  const store = newStore();
  const grace = new Date("2031-01-01T00:00:00.000Z");
  const [old1, old2, plain] = [
    await addKey({ graceEndsAt: grace }),
    await addKey({ graceEndsAt: grace, organizationId: orgB }),
    await addKey({}),
  ];
  clock = new Date("2030-08-01T00:00:00.000Z");
  await store.authenticate(old1.secret, "203.0.113.7");
  await store.authenticate(old2.secret);
  await store.authenticate(plain.secret, "203.0.113.8");
  await store.flushLastUsed();
  // an older use flushed later does not move the record back
  clock = new Date("2030-07-01T00:00:00.000Z");
  await store.authenticate(old1.secret, "198.51.100.1");
  await store.flushLastUsed();
  const rows = await database.db.select().from(apiKeys);
  const use = (id: string) => {
    const row = rows.find((r) => r.id === id);
    return { at: row?.graceUsedAt, ip: row?.graceUsedIp, last: row?.lastUsedAt };
  };
  const at = new Date("2030-08-01T00:00:00.000Z");
  expect(use(old1.id)).toEqual({ at, ip: "203.0.113.7", last: at });
  expect(use(old2.id)).toEqual({ at, ip: null, last: at });
  expect(use(plain.id)).toEqual({ at: null, ip: null, last: at });
  expect(warnings()).toEqual([]);
});

test("a key with an allowlist answers 403 to any other address, or none; without one, any", async () => {
  const store = newStore();
  const listed = await addKey({ allowedIps: ["203.0.113.0/24", "2001:db8::1"] });
  expect((await store.authenticate(listed.secret, "203.0.113.9")).apiKey.id).toBe(listed.id);
  expect((await store.authenticate(listed.secret, "2001:db8::1")).apiKey.id).toBe(listed.id);
  const refused = "403 IP address not allowed for this API key";
  expect(await refusal(store.authenticate(listed.secret, "203.0.114.9"))).toBe(refused);
  expect(await refusal(store.authenticate(listed.secret, ""))).toBe(refused);
  expect(await refusal(store.authenticate(listed.secret))).toBe(refused);
  const open = await addKey({});
  expect((await store.authenticate(open.secret)).apiKey.id).toBe(open.id);
  expect((await store.authenticate(open.secret, "198.51.100.1")).apiKey.id).toBe(open.id);
});

test("a recognised key's refusal names its key, organization and owner for the audit trail", async () => {
  const store = newStore();
  const keyOf = async (secret: string, ip?: string) =>
    store.authenticate(secret, ip).then(
      () => "accepted",
      (error: unknown) => refusedKeyOf(error),
    );
  const revoked = await addKey({ organizationId: orgB });
  await revoke(revoked.id);
  expect(await keyOf(revoked.secret)).toEqual({
    apiKeyId: revoked.id,
    organizationId: orgB,
    userId: owner,
  });
  const rotated = await addKey({ graceEndsAt: T0 });
  const expired = await addKey({ expiresAt: T0 });
  const listed = await addKey({ allowedIps: ["203.0.113.7"] });
  for (const key of [rotated, expired, listed]) {
    expect(await keyOf(key.secret, "198.51.100.1")).toEqual({
      apiKeyId: key.id,
      organizationId: orgA,
      userId: owner,
    });
  }
  // the owner left: the key is still named, the member is not
  const left = await addKey({ userId: stranger });
  expect(await keyOf(left.secret)).toEqual({
    apiKeyId: left.id,
    organizationId: orgA,
    userId: null,
  });
  expect(await keyOf(generateApiKey()), "an unknown key names nothing").toBeUndefined();
});
