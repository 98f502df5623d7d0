import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Database } from "../../src/db/client.ts";
import { organizations, quotaUsage } from "../../src/db/schema/index.ts";
import { QuotaStore } from "../../src/limits/quota-store.ts";
import { createLogger } from "../../src/logger.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * QuotaStore driven directly over one PGlite with its own clock (src/limits/quota-store.ts):
 * the limit's edge, report-only checks, per-minute buckets, the
 * sliding window's first minute, other instances' counts, forgetting idle organizations,
 * keeping counts while the database is away, and the once-a-minute prune.
 */
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
let database: Database;
let orgs: string[] = [];
let t = Date.parse("2041-03-04T05:06:30.000Z");
const logs: { level: string; msg: string }[] = [];
const logger = createLogger("debug", (line) => logs.push(JSON.parse(line)));
const newStore = (db: Database = database) => new QuotaStore(db, logger, () => t);
const buckets = async (organizationId: string) =>
  (
    await database.db
      .select({ minute: quotaUsage.minute, count: quotaUsage.count })
      .from(quotaUsage)
      .where(eq(quotaUsage.organizationId, organizationId))
  )
    .map((r) => [r.minute.toISOString(), r.count])
    .sort();
const minuteOf = (ms: number) => new Date(ms - (ms % MINUTE)).toISOString();
let next = 0;
/** the steady state's report-only answer, which comes without a promise */
const peek = (store: QuotaStore, id: string) => {
  const check = store.check(id, null, false);
  if (check instanceof Promise) throw new Error("expected an answer without a promise");
  return check.used;
};
const org = () => orgs[next++] as string;

beforeAll(async () => {
  fresh = await migratedPglite();
  database = fresh.database;
  orgs = (
    await database.db
      .insert(organizations)
      .values(Array.from({ length: 12 }, (_, i) => ({ name: `O${i}` })))
      .returning({ id: organizations.id })
  ).map((o) => o.id);
});

afterEach(() => {
  logs.length = 0;
  t += 7 * DAY;
});

afterAll(() => fresh.drop());

test("counts up to the limit, refuses at it; unlimited never refuses; report-only counts nothing", async () => {
  const store = newStore();
  const id = org();
  expect(await store.check(id, 3)).toEqual({ allowed: true, used: 1 });
  // the steady state answers without a promise
  expect(store.check(id, 3)).toEqual({ allowed: true, used: 2 });
  expect(store.check(id, 3, false)).toEqual({ allowed: true, used: 2 });
  expect(store.check(id, 3)).toEqual({ allowed: true, used: 3 });
  expect(store.check(id, 3)).toEqual({ allowed: false, used: 3 });
  expect(store.check(id, 3, false)).toEqual({ allowed: false, used: 3 });
  expect(store.check(id, null)).toEqual({ allowed: true, used: 4 });
  expect(store.check(id, 0)).toEqual({ allowed: false, used: 4 });
  await store.sync();
  expect(await buckets(id)).toEqual([[minuteOf(t), 4]]);
});

test("requests land in the bucket of their minute; a flush adds to stored buckets", async () => {
  const store = newStore();
  const id = org();
  const start = t;
  await store.check(id, null);
  t = start + MINUTE;
  store.check(id, null);
  store.check(id, null);
  t = start + 2 * MINUTE;
  store.check(id, null);
  t = start + MINUTE; // a late request of an earlier minute
  store.check(id, null);
  await store.sync();
  expect(await buckets(id)).toEqual(
    [
      [minuteOf(start), 1],
      [minuteOf(start + MINUTE), 3],
      [minuteOf(start + 2 * MINUTE), 1],
    ].sort(),
  );
  store.check(id, null);
  await store.sync();
  expect((await buckets(id)).find(([m]) => m === minuteOf(start + MINUTE))?.[1]).toBe(4);
  expect(peek(store, id)).toBe(6);
  // a sync with nothing pending writes nothing and keeps the total
  await store.sync();
  expect(peek(store, id)).toBe(6);
});

test("another instance's flushed counts show after a sync; the first check loads the total", async () => {
  const here = newStore();
  const there = newStore(await fresh.openAnother());
  const id = org();
  await here.check(id, null);
  here.check(id, null);
  await here.sync();
  expect(await there.check(id, null)).toEqual({ allowed: true, used: 3 });
  there.check(id, null);
  expect(peek(here, id)).toBe(2);
  await there.sync();
  await here.sync();
  expect(peek(here, id)).toBe(4);
  // concurrent first checks share one load and are each counted
  const other = org();
  const fresh3 = newStore();
  const all = await Promise.all([
    fresh3.check(other, 2),
    fresh3.check(other, 2),
    fresh3.check(other, 2),
  ]);
  expect(all).toEqual([
    { allowed: true, used: 1 },
    { allowed: true, used: 2 },
    { allowed: false, used: 2 },
  ]);
});

test("the window is the current minute and the 1,439 before it", async () => {
  const id = org();
  const now = t;
  const thisMinute = now - (now % MINUTE);
  await database.db.insert(quotaUsage).values([
    { organizationId: id, minute: new Date(thisMinute - 1439 * MINUTE), count: 5 },
    { organizationId: id, minute: new Date(thisMinute - 1440 * MINUTE), count: 7 },
  ]);
  const store = newStore();
  expect(await store.check(id, null, false)).toEqual({ allowed: true, used: 5 });
  store.check(id, null);
  await store.sync();
  expect(peek(store, id)).toBe(6);
  // one minute later the oldest bucket has left the window; the flush counts its own minute
  t = thisMinute + MINUTE;
  store.check(id, null);
  await store.sync();
  expect(peek(store, id)).toBe(2);
  // at the next flush a day later only the window's first minute still counts, not a count
  // written late for the minute before it
  t = thisMinute + 2 * MINUTE;
  store.check(id, null);
  t = thisMinute + MINUTE;
  store.check(id, null);
  t = thisMinute + 1441 * MINUTE;
  store.check(id, null, false); // seen now: kept in memory through the flush
  await store.sync();
  expect(peek(store, id)).toBe(1);
});

test("an organization idle for over 10 minutes is forgotten after its counts are written", async () => {
  const store = newStore();
  const id = org();
  await store.check(id, null);
  await store.sync();
  // biome-ignore lint/suspicious/noExplicitAny: the in-memory map is private
  const usage = (store as any).usage as Map<string, unknown>;
  t += 10 * MINUTE;
  await store.sync();
  expect(usage.has(id)).toBe(true);
  t += 1;
  await store.sync();
  expect(usage.has(id)).toBe(false);
  // a pending count keeps it however long it was idle
  await store.check(id, null);
  t += 11 * MINUTE;
  // biome-ignore lint/suspicious/noExplicitAny: seen long ago, with a count still pending
  (usage.get(id) as any).seenAt = t - 11 * MINUTE;
  await store.sync();
  expect(usage.has(id)).toBe(false);
  const total = (await buckets(id)).reduce((sum, [, count]) => sum + Number(count), 0);
  expect(total).toBe(2);
  expect(await store.check(id, null, false)).toEqual({ allowed: true, used: 2 });
});

test("while the database refuses, counts are kept and written once it is back", async () => {
  const other = await fresh.openAnother();
  const failing: Database = { ...other, db: other.db };
  const store = newStore(failing);
  const id = org();
  await store.check(id, null);
  const start = t;
  t = start + MINUTE;
  store.check(id, null);
  const realDb = failing.db;
  // biome-ignore lint/suspicious/noExplicitAny: every query of this handle fails
  (failing as any).db = new Proxy(realDb, {
    get: () => () => {
      throw new Error("database down");
    },
  });
  await store.sync();
  expect(logs.map((l) => l.msg)).toEqual(["could not record quota usage; will retry"]);
  expect(peek(store, id)).toBe(2);
  t = start + 2 * MINUTE;
  store.check(id, null);
  failing.db = realDb;
  await store.sync();
  expect(await buckets(id)).toEqual(
    [
      [minuteOf(start), 1],
      [minuteOf(start + MINUTE), 1],
      [minuteOf(start + 2 * MINUTE), 1],
    ].sort(),
  );
  expect(peek(store, id)).toBe(3);
  // nothing pending and the database away: the reload is skipped with a warning
  logs.length = 0;
  // biome-ignore lint/suspicious/noExplicitAny: every query of this handle fails
  (failing as any).db = new Proxy(realDb, {
    get: () => () => {
      throw new Error("database down");
    },
  });
  await store.sync();
  expect(logs.map((l) => l.msg)).toEqual(["could not reload quota usage"]);
  expect(peek(store, id)).toBe(3);
});

test("concurrent syncs share one run", async () => {
  const store = newStore();
  const id = org();
  await store.check(id, null);
  const before = database.stats.queries;
  const [a, b] = [store.sync(), store.sync()];
  expect(a).toBe(b);
  await a;
  await store.sync();
  expect(await buckets(id)).toEqual([[minuteOf(t), 1]]);
  expect(database.stats.queries - before).toBeLessThanOrEqual(4);
});

test("buckets that left the window are pruned, at most once a minute", async () => {
  const store = newStore();
  const id = org();
  const thisMinute = t - (t % MINUTE);
  const add = (minutesAgo: number) =>
    database.db
      .insert(quotaUsage)
      .values({ organizationId: id, minute: new Date(thisMinute - minutesAgo * MINUTE), count: 1 })
      .onConflictDoNothing();
  await add(1441);
  await add(1440);
  await add(1439);
  await store.check(id, null);
  await store.sync(); // prunes what is older than the window's minute before
  expect((await buckets(id)).map(([m]) => m)).toEqual(
    [
      minuteOf(thisMinute - 1440 * MINUTE),
      minuteOf(thisMinute - 1439 * MINUTE),
      minuteOf(thisMinute),
    ].sort(),
  );
  await add(1441);
  const pruned = t;
  t = pruned + MINUTE - 1;
  store.check(id, null);
  await store.sync();
  expect((await buckets(id)).map(([m]) => m)).toContain(minuteOf(thisMinute - 1441 * MINUTE));
  t = pruned + MINUTE;
  store.check(id, null);
  await store.sync();
  const left = (await buckets(id)).map(([m]) => m);
  // a minute later the window starts one minute later: the two older buckets go
  expect(left).not.toContain(minuteOf(thisMinute - 1441 * MINUTE));
  expect(left).not.toContain(minuteOf(thisMinute - 1440 * MINUTE));
  expect(left).toContain(minuteOf(thisMinute - 1439 * MINUTE));
  expect(logs).toEqual([]);
});
