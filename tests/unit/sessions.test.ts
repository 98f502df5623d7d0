import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { sha256Hex } from "../../src/auth/keys.ts";
import {
  ENROLL_ONLY_SESSION_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SessionStore,
  sessionCsrfToken,
} from "../../src/auth/sessions.ts";
import type { Database } from "../../src/db/client.ts";
import { userSessions, users } from "../../src/db/schema/index.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * The settings screen's sessions driven directly over PGlite with an injected clock (src/auth/sessions.ts and
 * src/db/queries/sessions.ts): what is stored
 * (only a hash), the idle (12 h) and absolute (7 days) expiry at their exact instants, the
 * once-a-minute touch, ending one, all of a user's, and pruning at sign-in.
 */
const HOUR = 3_600_000;
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
let database: Database;
let ada: string;
let bob: string;
let t = Date.parse("2034-04-04T04:04:04.000Z");
const store = () => new SessionStore(database, () => new Date(t));
const rows = () =>
  database.db
    .select({
      userId: userSessions.userId,
      tokenHash: userSessions.tokenHash,
      createdAt: userSessions.createdAt,
      lastSeenAt: userSessions.lastSeenAt,
      expiresAt: userSessions.expiresAt,
    })
    .from(userSessions);
const rowOf = async (token: string) =>
  (await rows()).find((row) => row.tokenHash === sha256Hex(token));

beforeAll(async () => {
  fresh = await migratedPglite();
  database = fresh.database;
  const made = await database.db
    .insert(users)
    .values([
      { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace" },
      { email: "bob@example.com", firstName: "Bob", lastName: "Builder" },
    ])
    .returning({ id: users.id });
  [ada, bob] = made.map((u) => u.id) as [string, string];
});
beforeEach(async () => {
  await database.db.delete(userSessions);
  t += 30 * 24 * HOUR;
});
afterAll(() => fresh.drop());

test("constants: the cookie's name, 12 h idle, 7 days absolute", () => {
  expect(SESSION_COOKIE).toBe("orgit_session");
  expect(SESSION_IDLE_MS).toBe(12 * HOUR);
  expect(SESSION_ABSOLUTE_MS).toBe(7 * 24 * HOUR);
});

test("a new session: a 43-character base62 token, stored only as its SHA-256, with its times", async () => {
  const token = await store().create(ada);
  expect(token).toMatch(/^[0-9A-Za-z]{43}$/);
  const all = await rows();
  expect(all).toHaveLength(1);
  expect(all[0]).toEqual({
    userId: ada,
    tokenHash: sha256Hex(token),
    createdAt: new Date(t),
    lastSeenAt: new Date(t),
    expiresAt: new Date(t + 7 * 24 * HOUR),
  });
  expect(JSON.stringify(all)).not.toContain(token);
  expect(await store().create(ada), "a new id at every sign-in").not.toBe(token);
});

test("resolve answers the member behind the cookie, nothing more", async () => {
  const token = await store().create(ada);
  const member = await store().resolve(token);
  expect(member).toEqual({
    sessionId: expect.any(String),
    userId: ada,
    email: "ada@example.com",
    firstName: "Ada",
    lastName: "Lovelace",
    enrollOnly: false,
  });
  expect(await store().resolve(undefined)).toBeNull();
  expect(await store().resolve("")).toBeNull();
  expect(await store().resolve(`${token}x`), "a longer value").toBeNull();
  expect(await store().resolve(token.slice(1)), "a shorter value").toBeNull();
  expect(await store().resolve("A".repeat(43)), "an unknown value").toBeNull();
  // a value of another length is refused without a database lookup
  const before = database.stats.queries;
  expect(await store().resolve(`${token}x`)).toBeNull();
  expect(await store().resolve("short")).toBeNull();
  expect(database.stats.queries).toBe(before);
});

test("without an injected clock, sessions run on the wall clock", async () => {
  const before = Date.now();
  const token = await new SessionStore(database).create(ada);
  const row = await rowOf(token);
  expect(row?.createdAt.getTime()).toBeGreaterThanOrEqual(before);
  expect(row?.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
  expect(await new SessionStore(database).resolve(token)).not.toBeNull();
});

test("idle: refused and deleted from exactly 12 h after the last request", async () => {
  const token = await store().create(ada);
  t += SESSION_IDLE_MS - 1;
  expect(await store().resolve(token)).not.toBeNull();
  expect((await rowOf(token))?.lastSeenAt, "that request touched it").toEqual(new Date(t));
  t += SESSION_IDLE_MS - 1;
  expect(await store().resolve(token)).not.toBeNull();
  t += SESSION_IDLE_MS;
  expect(await store().resolve(token)).toBeNull();
  expect(await rows(), "deleted, not only refused").toEqual([]);
});

test("absolute: refused and deleted from exactly 7 days, however active", async () => {
  const token = await store().create(ada);
  const expires = t + SESSION_ABSOLUTE_MS;
  while (t < expires - HOUR) {
    t += 11 * HOUR;
    if (t < expires) expect(await store().resolve(token)).not.toBeNull();
  }
  t = expires - 1;
  expect(await store().resolve(token)).not.toBeNull();
  t = expires;
  expect(await store().resolve(token)).toBeNull();
  expect(await rows()).toEqual([]);
});

test("last seen is written at most once a minute", async () => {
  const token = await store().create(ada);
  const created = t;
  t = created + 59_999;
  await store().resolve(token);
  expect((await rowOf(token))?.lastSeenAt).toEqual(new Date(created));
  t = created + 60_000;
  await store().resolve(token);
  expect((await rowOf(token))?.lastSeenAt).toEqual(new Date(created + 60_000));
});

test("end removes that session only; a missing cookie removes nothing", async () => {
  const one = await store().create(ada);
  const two = await store().create(ada);
  await store().end(undefined);
  await store().end("");
  expect(await rows()).toHaveLength(2);
  await store().end(one);
  expect(await store().resolve(one)).toBeNull();
  expect(await store().resolve(two)).not.toBeNull();
  expect((await rows()).map((r) => r.tokenHash)).toEqual([sha256Hex(two)]);
});

test("endAll removes every session of that user only", async () => {
  await store().create(ada);
  await store().create(ada);
  const bobs = await store().create(bob);
  await store().endAll(ada);
  expect((await rows()).map((r) => r.userId)).toEqual([bob]);
  expect(await store().resolve(bobs)).not.toBeNull();
});

test("a sign-in prunes sessions past 7 days or idle 12 h, from exactly then, and keeps the rest", async () => {
  const start = t;
  await database.db.insert(userSessions).values([
    // idle exactly 12 h (gone) and 12 h − 1 ms (kept)
    row(ada, "idle-gone", start - SESSION_IDLE_MS - 1, start + HOUR),
    row(ada, "idle-kept", start - SESSION_IDLE_MS, start + HOUR),
    // past its end (gone), at its end (kept: a request now would be refused and delete it)
    row(bob, "over-gone", start - 1, start - 1, start - 2),
    row(bob, "over-kept", start - 1, start, start - 2),
  ]);
  const signedIn = await store().create(bob);
  const left = (await rows()).map((r) => r.tokenHash).sort();
  expect(left).toEqual(
    [sha256Hex("idle-kept"), sha256Hex("over-kept"), sha256Hex(signedIn)].sort(),
  );
});

test("prune on its own, in a transaction's executor too", async () => {
  await database.db.insert(userSessions).values(row(ada, "old", t - SESSION_IDLE_MS - 1, t + HOUR));
  await database.db.transaction(async (tx) => {
    await store().prune(tx);
  });
  expect(await rows()).toEqual([]);
  await store().create(ada, database.db);
  await database.db.transaction(async (tx) => store().endAll(ada, tx));
  expect(await rows()).toEqual([]);
});

test("a session that may only add a passkey ends 15 minutes after sign-in and says so", async () => {
  expect(ENROLL_ONLY_SESSION_MS).toBe(15 * 60_000);
  const token = await store().create(ada, database.db, { enrollOnly: true });
  expect((await rowOf(token))?.expiresAt).toEqual(new Date(t + 15 * 60_000));
  expect((await store().resolve(token))?.enrollOnly).toBe(true);
  const full = await store().create(ada, database.db, { enrollOnly: false });
  expect((await rowOf(full))?.expiresAt).toEqual(new Date(t + SESSION_ABSOLUTE_MS));
  expect((await store().resolve(full))?.enrollOnly).toBe(false);
  t += 15 * 60_000 - 1;
  expect(await store().resolve(token)).not.toBeNull();
  t += 1;
  expect(await store().resolve(token), "refused from exactly 15 minutes").toBeNull();
  expect((await rows()).map((r) => r.tokenHash)).toEqual([sha256Hex(full)]);
});

test("a flash is shown once, only to its session, and only the latest one set", async () => {
  const adas = await store().resolve(await store().create(ada));
  const bobs = await store().resolve(await store().create(bob));
  if (!adas || !bobs) throw new Error("no session");
  await store().setFlash(adas.sessionId, "first");
  await store().setFlash(adas.sessionId, "second");
  expect(await store().takeFlash(adas.sessionId, "first"), "replaced by the second").toBe(false);
  expect(await store().takeFlash(bobs.sessionId, "second"), "another session's").toBe(false);
  expect(await store().takeFlash(adas.sessionId, "second")).toBe(true);
  expect(await store().takeFlash(adas.sessionId, "second"), "single use").toBe(false);
  await store().setFlash(bobs.sessionId, "bobs");
  expect(await store().takeFlash(adas.sessionId, "bobs")).toBe(false);
  expect(await store().takeFlash(bobs.sessionId, "bobs")).toBe(true);
});

test("the CSRF token is SHA-256 of csrf: and the session token", () => {
  expect(sessionCsrfToken("abc")).toBe(sha256Hex("csrf:abc"));
  expect(sessionCsrfToken("abc")).not.toBe(sessionCsrfToken("abd"));
});

/** A session row: hash of `token`, last seen at `seen`, ending at `expires`. */
function row(userId: string, token: string, seen: number, expires: number, created = seen) {
  return {
    userId,
    tokenHash: sha256Hex(token),
    createdAt: new Date(created),
    lastSeenAt: new Date(seen),
    expiresAt: new Date(expires),
  };
}
