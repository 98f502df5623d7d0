import { afterAll, afterEach, beforeAll, expect, setSystemTime, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { sha256Hex } from "../../src/auth/keys.ts";
import type { Principal } from "../../src/auth/principal.ts";
import type { Database } from "../../src/db/client.ts";
import { apiKeys, idempotencyKeys, organizations, users } from "../../src/db/schema/index.ts";
import {
  canonicalJson,
  IDEMPOTENCY_TTL_MS,
  type IdempotentResponse,
  idempotent,
} from "../../src/http/idempotency.ts";
import type { Services } from "../../src/services.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * `idempotent()` called directly over one PGlite, with its own clock (src/http/idempotency.ts):
 * the key's shape, what the request hash covers, the answer bound to
 * its row, the wait for a duplicate still running (here or on another instance, its backoff and
 * its 30 s limit), and the once-a-minute prune.
 */
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
let database: Database;
let apiKeyId: string;
// far from the other suites' clocks (the prune throttle is kept per database)
let clock = new Date("2040-01-01T00:00:00.000Z");
const SECRET = "orgit_secret-of-the-test-key";
const services = () => ({ database, now: () => clock }) as unknown as Services;
const principal = () => ({ apiKey: { id: apiKeyId } }) as unknown as Principal;

type Sent = { status: unknown; headers: Record<string, string>; body: unknown };
const call = async (
  options: {
    key?: string | null;
    body?: unknown;
    path?: string;
    method?: string;
    auth?: string | null;
    create?: () => Promise<IdempotentResponse>;
  } = {},
): Promise<Sent> => {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers["idempotency-key"] = options.key ?? "k";
  if (options.auth !== null) headers.authorization = options.auth ?? `Bearer ${SECRET}`;
  const request = new Request(`http://x.test${options.path ?? "/api/things"}`, {
    method: options.method ?? "POST",
    headers,
  });
  const set = { status: 0 as unknown, headers: {} as Record<string, string> };
  const body = await idempotent(
    services(),
    // biome-ignore lint/suspicious/noExplicitAny: Elysia's `set`, reduced to what is used
    { request, principal: principal(), body: options.body ?? { a: 1 }, set: set as any },
    options.create ?? (async () => ({ status: 201, body: { made: crypto.randomUUID() } })),
  );
  return { status: set.status, headers: set.headers, body };
};
const rows = () => database.db.select().from(idempotencyKeys);
const refusal = (run: Promise<unknown>) =>
  run.then(
    () => "accepted",
    (e: { status: number; message: string }) => `${e.status} ${e.message}`,
  );
/** the hash `call()`'s default request has: POST /api/things with { a: 1 } */
const REQUEST_HASH = sha256Hex(`POST /api/things\n${canonicalJson({ a: 1 })}`);
/** a reservation made by another instance, still running */
const foreignReservation = (key: string) =>
  database.db
    .insert(idempotencyKeys)
    .values({ apiKeyId, key, requestHash: REQUEST_HASH, createdAt: clock });

beforeAll(async () => {
  fresh = await migratedPglite();
  database = fresh.database;
  const [org] = await database.db.insert(organizations).values({ name: "O" }).returning();
  const [user] = await database.db
    .insert(users)
    .values({ email: "u@x.test", firstName: "U", lastName: "U" })
    .returning();
  const [key] = await database.db
    .insert(apiKeys)
    .values({
      organizationId: org?.id as string,
      userId: user?.id as string,
      name: "k",
      keyHash: "h",
      prefix: "orgit_secret",
      scopes: [],
    })
    .returning();
  apiKeyId = key?.id as string;
});

afterEach(async () => {
  setSystemTime();
  // each test starts more than a minute after the last prune
  clock = new Date(clock.getTime() + 2 * IDEMPOTENCY_TTL_MS);
  await database.db.delete(idempotencyKeys);
});

afterAll(() => fresh.drop());

test("without the header or without a bearer key the request just runs, remembering nothing", async () => {
  const first = await call({ key: null });
  expect(first.status).toBe(201);
  expect(first.headers).toEqual({});
  const unkeyed = await call({ auth: null });
  expect(unkeyed.status).toBe(201);
  expect(await rows()).toEqual([]);
});

test("the key is 1 to 255 visible ASCII characters", async () => {
  for (const key of ["!", "~", "a".repeat(255), "Aa0-_.:/"]) {
    expect((await call({ key })).status).toBe(201);
  }
  for (const key of ["", "a".repeat(256), "has space", "mid\ttab", "a\x7fb", "é"]) {
    const error = await call({ key }).then(
      () => null,
      (e) => e,
    );
    expect(error?.status).toBe(400);
    expect(JSON.stringify(error?.details ?? error)).toContain(
      "Must be 1 to 255 visible ASCII characters",
    );
    expect(JSON.stringify(error?.details ?? error)).toContain("Idempotency-Key");
  }
});

test("a replay is marked, the first answer is not; method and path are part of the request", async () => {
  const first = await call({ key: "r" });
  expect(first.headers).toEqual({});
  const again = await call({ key: "r", body: { a: 1 } });
  expect(again).toEqual({
    status: 201,
    headers: { "idempotent-replayed": "true" },
    body: first.body,
  });
  const conflict = "409 Idempotency-Key was already used with a different request; use a new key";
  expect(await refusal(call({ key: "r", path: "/api/other" }))).toBe(conflict);
  expect(await refusal(call({ key: "r", method: "PUT" }))).toBe(conflict);
  expect(await refusal(call({ key: "r", body: { a: 2 } }))).toBe(conflict);
});

test("a remembered answer opens only on the row it was written for", async () => {
  await call({ key: "one" });
  await call({ key: "two" });
  const [one] = await database.db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, "one")));
  await database.db
    .update(idempotencyKeys)
    .set({ responseBody: one?.responseBody })
    .where(eq(idempotencyKeys.key, "two"));
  expect(await refusal(call({ key: "two" }))).toBe(
    "409 The answer to this Idempotency-Key cannot be replayed; use a new key",
  );
  // another secret cannot open it either
  expect(await refusal(call({ key: "one", auth: "Bearer orgit_another-secret" }))).toBe(
    "409 The answer to this Idempotency-Key cannot be replayed; use a new key",
  );
});

test("a row stored before answers were sealed is replayed as stored", async () => {
  const first = await call({ key: "legacy" });
  await database.db
    .update(idempotencyKeys)
    .set({ responseBody: { legacy: true }, statusCode: 200 })
    .where(eq(idempotencyKeys.key, "legacy"));
  expect(first.status).toBe(201);
  expect(await call({ key: "legacy" })).toEqual({
    status: 200,
    headers: { "idempotent-replayed": "true" },
    body: { legacy: true },
  });
});

test("a failed request releases its key: the retry runs", async () => {
  const failed = await refusal(
    call({
      key: "f",
      create: async () => {
        throw new Error("boom");
      },
    }),
  );
  expect(failed).toBe("undefined boom");
  expect(await rows()).toEqual([]);
  expect((await call({ key: "f" })).headers).toEqual({});
});

test("a duplicate in this process awaits the running request instead of polling", async () => {
  let finish = () => {};
  const slow = call({
    key: "local",
    create: () =>
      new Promise((resolve) => {
        finish = () => resolve({ status: 201, body: { slow: true } });
      }),
  });
  while ((await rows()).length === 0) await Bun.sleep(5);
  const before = database.stats.queries;
  const duplicate = call({ key: "local" });
  await Bun.sleep(1_200);
  // polling would have queried every 25…500 ms (about 12 queries in 1.2 s)
  expect(database.stats.queries - before).toBeLessThanOrEqual(3);
  finish();
  expect((await slow).body).toEqual({ slow: true });
  expect(await duplicate).toEqual({
    status: 201,
    headers: { "idempotent-replayed": "true" },
    body: { slow: true },
  });
});

test("a duplicate of another instance's request polls with backoff and replays its answer", async () => {
  // a finished request leaves nothing behind that a later duplicate would wait on
  await call({ key: "earlier" });
  await database.db.delete(idempotencyKeys);
  await foreignReservation("earlier");
  const before = database.stats.queries;
  const duplicate = call({ key: "earlier" });
  await Bun.sleep(1_000);
  // sleeps of 25, 50, 100, 200, 400 ms: about 6 rounds of two queries, plus the prune (a first
  // sleep of 500 ms would allow 3 rounds at most; no backoff, dozens)
  const polled = database.stats.queries - before;
  expect(polled).toBeGreaterThanOrEqual(9);
  expect(polled).toBeLessThanOrEqual(15);
  await database.db
    .update(idempotencyKeys)
    .set({ statusCode: 202, responseBody: { theirs: 1 } })
    .where(eq(idempotencyKeys.key, "earlier"));
  const started = performance.now();
  expect(await duplicate).toEqual({
    status: 202,
    headers: { "idempotent-replayed": "true" },
    body: { theirs: 1 },
  });
  // the backoff never exceeds 500 ms
  expect(performance.now() - started).toBeLessThan(1_500);
});

test("a duplicate gives up with 409 after 30 s, not at 30 s", async () => {
  const start = Date.now();
  setSystemTime(new Date(start));
  await foreignReservation("stuck");
  const before = database.stats.queries;
  const duplicate = refusal(call({ key: "stuck" }));
  let settled = false;
  void duplicate.then(() => {
    settled = true;
  });
  // its deadline is set before its first attempt (the reservation insert and the lookup)
  while (database.stats.queries - before < 2) await Bun.sleep(5);
  setSystemTime(new Date(start + 30_000));
  await Bun.sleep(1_200);
  expect(settled).toBe(false);
  setSystemTime(new Date(start + 30_001));
  expect(await duplicate).toBe(
    "409 A request with this Idempotency-Key is still being processed; retry later",
  );
});

test("expired keys are pruned at most once a minute, and only expired ones", async () => {
  await call({ key: "warm" }); // prunes now
  const t = clock.getTime();
  const expired = new Date(t - IDEMPOTENCY_TTL_MS - 1);
  const keep = new Date(t - IDEMPOTENCY_TTL_MS + 120_000);
  const insertAt = (key: string, createdAt: Date) =>
    database.db
      .insert(idempotencyKeys)
      .values({ apiKeyId, key, requestHash: "h", statusCode: 200, createdAt });
  await insertAt("old", expired);
  await insertAt("young", keep);
  const keys = async () => (await rows()).map((r) => r.key).sort();
  clock = new Date(t + 59_999);
  await call({ key: null });
  await call({ key: "a" });
  expect(await keys()).toEqual(["a", "old", "warm", "young"]);
  clock = new Date(t + 60_000);
  await call({ key: "b" });
  expect(await keys()).toEqual(["a", "b", "warm", "young"]);
});

test("canonicalJson sorts keys of any insertion order the same way", () => {
  const names = Array.from({ length: 24 }, (_, i) => `k${String.fromCharCode(97 + i)}${i % 3}`);
  const sorted = [...names].sort();
  const expected = `{${sorted.map((n) => `"${n}":1`).join(",")}}`;
  for (let round = 0; round < 20; round++) {
    const shuffled = [...names].sort(() => Math.random() - 0.5);
    expect(canonicalJson(Object.fromEntries(shuffled.map((n) => [n, 1])))).toBe(expected);
  }
  expect(canonicalJson({ b: 1, a: 2, B: 3, _: 4 })).toBe('{"B":3,"_":4,"a":2,"b":1}');
});

test("a reservation is taken over after 60 s unfinished; an answer is replayed for 24 h", async () => {
  const t = clock.getTime();
  const at = (ms: number) => new Date(t - ms);
  const insert = (key: string, createdAt: Date, statusCode: number | null) =>
    database.db.insert(idempotencyKeys).values({
      apiKeyId,
      key,
      requestHash: REQUEST_HASH,
      createdAt,
      statusCode,
      responseBody: statusCode === null ? null : { stored: key },
    });
  await insert("abandoned", at(60_001), null);
  expect((await call({ key: "abandoned" })).headers).toEqual({});
  await insert("replayed-at-24h", at(IDEMPOTENCY_TTL_MS), 200);
  expect(await call({ key: "replayed-at-24h" })).toEqual({
    status: 200,
    headers: { "idempotent-replayed": "true" },
    body: { stored: "replayed-at-24h" },
  });
  await insert("expired", at(IDEMPOTENCY_TTL_MS + 1), 200);
  const renewed = await call({ key: "expired" });
  expect(renewed.status).toBe(201);
  expect(renewed.headers).toEqual({});
  // still running at exactly 60 s: waited for, not taken over
  await insert("running", at(60_000), null);
  const waiting = call({ key: "running" });
  await Bun.sleep(300);
  await database.db
    .update(idempotencyKeys)
    .set({ statusCode: 204, responseBody: { done: true } })
    .where(eq(idempotencyKeys.key, "running"));
  expect(await waiting).toEqual({
    status: 204,
    headers: { "idempotent-replayed": "true" },
    body: { done: true },
  });
});
