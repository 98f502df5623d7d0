import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "../../src/db/client.ts";
import {
  organizations,
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../../src/db/schema/index.ts";
import type { WEBHOOK_EVENT_TYPES } from "../../src/features.ts";
import { createLogger } from "../../src/logger.ts";
import { type DispatcherOptions, WebhookDispatcher } from "../../src/outbox/dispatcher.ts";
import { recordEvent } from "../../src/outbox/outbox.ts";

type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

import { newWebhookSecret } from "../../src/outbox/signer.ts";
import { testDispatcherOptions } from "../helpers/dispatcher-options.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";

/**
 * WebhookDispatcher's scheduling, over a database whose statements the test counts, holds and
 * fails: wake-ups that
 * arrive during a claim and how many claim statements they cost, the concurrency limit and the
 * lease each claim writes, a send whose lease another instance took over, the purge's batches
 * and its timer at stop, and each unexpected failure (claim, attempt, purge): its log line and
 * the recovery that follows. The dispatcher's own clock is injected; no test waits a fixed time.
 */
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
let database: Database;
let organizationId: string;
let clock = new Date("2043-01-01T00:00:00.000Z");
const logs: { level: string; msg: string; [k: string]: unknown }[] = [];
const logger = createLogger("debug", (line) => logs.push(JSON.parse(line)));
const running: WebhookDispatcher[] = [];
const receivers: { stop(): void }[] = [];
const releases: (() => void)[] = [];

const options = (overrides: Partial<DispatcherOptions> = {}): DispatcherOptions =>
  // no poll in these tests: every claim comes from start, a NOTIFY, a finished send or wake()
  testDispatcherOptions({ pollMs: 600_000, ...overrides });
const dispatcher = async (
  db: Database,
  overrides: Partial<DispatcherOptions> = {},
  start = true,
) => {
  const d = new WebhookDispatcher(db, logger, () => clock, options(overrides));
  running.push(d);
  if (start) await d.start();
  return d;
};

/** a promise the test settles itself; settled in afterEach at the latest */
const gate = () => {
  let open = () => {};
  const closed = new Promise<void>((resolve) => {
    open = resolve;
  });
  releases.push(open);
  return { closed, open };
};

type Kind = "claim" | "purge" | "other";
const dialect = new PgDialect();
const kindOf = (query: SQL): Kind => {
  const text = dialect.sqlToQuery(query).sql;
  if (text.includes("with busy as")) return "claim";
  if (text.includes("delete from webhook_events")) return "purge";
  return "other";
};

/**
 * The test's database seen through the dispatcher: claims and purges go through `execute`,
 * delivery outcomes through `update`. `issued` counts statements as they are sent (a claim is
 * sent synchronously by wake()); `hold(kind)` lets the next statement of that kind run but
 * keeps its answer until the returned function is called; `fail(kind)` makes the next one throw.
 */
const instrumented = (base: Database) => {
  const issued: Record<Kind, number> = { claim: 0, purge: 0, other: 0 };
  const holds = new Map<Kind, Promise<void>>();
  const failures = new Map<Kind | "update", Error>();
  const take = <K, V>(map: Map<K, V>, key: K) => {
    const value = map.get(key);
    map.delete(key);
    return value;
  };
  const db = Object.create(base.db) as Database["db"];
  db.execute = (async (query: SQL) => {
    const kind = kindOf(query);
    issued[kind]++;
    const failure = take(failures, kind);
    if (failure) throw failure;
    const hold = take(holds, kind);
    const result = await base.db.execute(query);
    await hold;
    return result;
  }) as unknown as Database["db"]["execute"];
  db.update = ((table: typeof webhookDeliveries) => {
    const failure = take(failures, "update");
    if (failure) throw failure;
    return base.db.update(table);
  }) as unknown as Database["db"]["update"];
  return {
    database: { ...base, db } satisfies Database,
    issued,
    hold(kind: Kind): () => void {
      const { closed, open } = gate();
      holds.set(kind, closed);
      return open;
    },
    fail(kind: Kind | "update", error: Error) {
      failures.set(kind, error);
    },
  };
};

const subscribe = async (
  extra: { failingSince?: Date; hold?: Promise<unknown>; events?: WebhookEventType[] } = {},
) => {
  const secret = newWebhookSecret();
  const receiver = startReceiver(() => secret, { hold: extra.hold });
  receivers.push(receiver);
  const [sub] = await database.db
    .insert(webhookSubscriptions)
    .values({
      organizationId,
      url: receiver.url,
      events: extra.events ?? ["project.created"],
      secret,
      failingSince: extra.failingSince ?? null,
    })
    .returning();
  return { receiver, id: (sub as { id: string }).id };
};
const project = { id: "p", name: "n", description: "", createdAt: "c", updatedAt: "u" };
const emit = (type: WebhookEventType = "project.created") =>
  recordEvent(database.db, { organizationId, type, data: { project }, now: clock });
const deliveries = (subscriptionId: string) =>
  database.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId));
const delivery = async (subscriptionId: string) => (await deliveries(subscriptionId))[0];
const subscription = async (id: string) =>
  (await database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)))[0];
const later = (ms: number) => new Date(clock.getTime() + ms);

beforeAll(async () => {
  fresh = await migratedPglite();
  database = fresh.database;
  const [org] = await database.db.insert(organizations).values({ name: "O" }).returning();
  organizationId = (org as { id: string }).id;
});

afterEach(async () => {
  for (const open of releases.splice(0)) open();
  for (const d of running.splice(0)) await d.stop();
  for (const r of receivers.splice(0)) r.stop();
  await database.db.delete(webhookSubscriptions);
  await database.db.delete(webhookEvents);
  logs.length = 0;
  clock = later(30 * 86_400_000);
});

afterAll(() => fresh.drop());

test("wake-ups during a claim make one more claim after it; an idle dispatcher sends nothing more", async () => {
  const { receiver, id } = await subscribe();
  const start = clock;
  clock = later(1_000);
  await emit();
  clock = start;
  const control = instrumented(database);
  const release = control.hold("claim");
  const d = await dispatcher(control.database);
  expect(control.issued.claim).toBe(1);
  // the delivery comes due while the first claim (made at `start`, nothing due) is answering
  clock = later(1_000);
  d.wake();
  d.wake();
  expect(control.issued.claim, "no second claim beside the running one").toBe(1);
  release();
  await eventually(async () => (await delivery(id))?.status === "delivered", "sent");
  // the end of the send wakes it once more: a claim that finds nothing, then silence
  await eventually(() => control.issued.claim >= 3, "the claim after the send");
  await d.stop();
  expect(control.issued.claim).toBe(3);
  expect(receiver.deliveredIds().size).toBe(1);
});

test("never more sends than `concurrency`; each claim leases for the timeout plus 5 s", async () => {
  const held = gate();
  const { receiver, id } = await subscribe({ hold: held.closed });
  for (let i = 0; i < 5; i++) await emit();
  const control = instrumented(database);
  await dispatcher(control.database, { concurrency: 2, perSubscription: 10, timeoutMs: 3_000 });
  await eventually(() => receiver.arrived.length >= 2, "two sends started");
  // both slots taken: the claim loop ended without a statement asking for zero rows
  expect(control.issued.claim).toBe(1);
  expect(receiver.arrived).toHaveLength(2);
  const leases = (await deliveries(id)).map((row) => row.leaseUntil).filter(Boolean);
  expect(leases).toEqual([later(3_000 + 5_000), later(3_000 + 5_000)]);
  held.open();
  await eventually(
    async () => (await deliveries(id)).every((row) => row.status === "delivered"),
    "all five delivered",
  );
  expect(receiver.deliveredIds().size).toBe(5);
});

test("a slot freed while a claim answers is filled at once, even by a claim that got all it asked", async () => {
  const first = gate();
  const second = gate();
  const a = await subscribe({ hold: first.closed });
  const b = await subscribe({ hold: second.closed, events: ["project.updated"] });
  await emit();
  const start = clock;
  clock = later(1_000);
  await emit("project.updated");
  await emit("project.updated");
  clock = start;
  const control = instrumented(database);
  // sends never time out here: only the freed slot can start the third one
  const d = await dispatcher(control.database, {
    concurrency: 2,
    perSubscription: 10,
    timeoutMs: 60_000,
  });
  let wakes = 0;
  const wake = d.wake.bind(d);
  d.wake = () => {
    wakes++;
    wake();
  };
  await eventually(() => a.receiver.arrived.length === 1, "the first send started");
  // the other two come due; one slot is free, so the claim asks for one row and gets it, but
  // answers only after the first send has ended and freed the other slot
  clock = later(1_000);
  const release = control.hold("claim");
  d.wake();
  expect(control.issued.claim).toBe(2);
  first.open();
  await eventually(() => wakes >= 2, "woken by the end of the first send");
  expect(control.issued.claim, "that wake-up waited for the running claim").toBe(2);
  release();
  await eventually(() => b.receiver.arrived.length === 2, "both later sends under way");
  second.open();
  await eventually(() => b.receiver.deliveredIds().size === 2, "both delivered");
});

test("a send whose lease another instance took over leaves the subscription's streak alone", async () => {
  const since = later(-60_000);
  const held = gate();
  const { receiver, id } = await subscribe({ hold: held.closed, failingSince: since });
  await emit();
  const d = await dispatcher(database);
  await eventually(() => receiver.arrived.length === 1, "send started");
  // the other instance's claim: a later lease and one more attempt
  const takenOver = later(60_000);
  await database.db
    .update(webhookDeliveries)
    .set({ leaseUntil: takenOver, attempts: 2 })
    .where(eq(webhookDeliveries.subscriptionId, id));
  held.open();
  await eventually(() => receiver.deliveredIds().size === 1, "answered");
  await d.stop();
  expect(await delivery(id)).toMatchObject({
    status: "pending",
    attempts: 2,
    leaseUntil: takenOver,
  });
  expect((await subscription(id))?.failingSince).toEqual(since);
});

test("purge: more than one batch of old events all go; a dispatcher never started stops", async () => {
  const old = later(-2 * 86_400_000);
  await database.db.insert(webhookEvents).values(
    Array.from({ length: 1_001 }, () => ({
      organizationId,
      type: "project.created",
      payload: {},
      createdAt: old,
    })),
  );
  const control = instrumented(database);
  const d = await dispatcher(control.database, {}, false);
  expect(await d.purge()).toBe(1_001);
  expect(control.issued.purge, "a batch of 1,000, then the rest").toBe(2);
  expect(await database.db.select().from(webhookEvents)).toEqual([]);
  await d.stop();
});

test("a failed purge is logged and the next comes on time; one running at stop is the last", async () => {
  const control = instrumented(database);
  control.fail("purge", new Error("disk full"));
  const release = control.hold("purge");
  const d = await dispatcher(control.database, { purgeEveryMs: 37 });
  await eventually(() => control.issued.purge === 2, "the purge after the failed one");
  expect(logs.filter((l) => l.msg === "webhook event purge failed")).toMatchObject([
    { level: "warn", error: "disk full", errorName: "Error" },
  ]);
  const scheduled: unknown[] = [];
  const setTimer = globalThis.setTimeout;
  globalThis.setTimeout = ((handler: () => void, ms?: number, ...args: unknown[]) => {
    scheduled.push(ms);
    return setTimer(handler, ms, ...args);
  }) as unknown as typeof setTimeout;
  try {
    const stopping = d.stop();
    release();
    await stopping;
  } finally {
    globalThis.setTimeout = setTimer;
  }
  expect(scheduled, "no purge timer set by the stopped dispatcher").not.toContain(37);
  expect(control.issued.purge).toBe(2);
});

test("a failed claim is logged; the next wake-up claims again", async () => {
  const { receiver, id } = await subscribe();
  await emit();
  const control = instrumented(database);
  control.fail("claim", new Error("connection reset"));
  const d = await dispatcher(control.database);
  await eventually(() => logs.some((l) => l.msg === "webhook claim failed"), "failure logged");
  expect(logs.find((l) => l.msg === "webhook claim failed")).toMatchObject({
    level: "warn",
    error: "connection reset",
    errorName: "Error",
  });
  expect(await delivery(id)).toMatchObject({ status: "pending", attempts: 0 });
  d.wake();
  await eventually(async () => (await delivery(id))?.status === "delivered", "delivered");
  expect(receiver.deliveredIds().size).toBe(1);
});

test("an attempt whose outcome cannot be written is logged; after its lease it is sent again", async () => {
  const { receiver, id } = await subscribe();
  await emit();
  const control = instrumented(database);
  control.fail("update", new Error("statement timeout"));
  const d = await dispatcher(control.database);
  const msg = "webhook attempt failed unexpectedly";
  await eventually(() => logs.some((l) => l.msg === msg), "failure logged");
  const row = await delivery(id);
  expect(logs.find((l) => l.msg === msg)).toMatchObject({
    level: "error",
    deliveryId: row?.id,
    error: "statement timeout",
    errorName: "Error",
  });
  // the lease stays: no other claim takes it before it ends
  expect(row).toMatchObject({ status: "pending", attempts: 1, leaseUntil: later(2_000 + 5_000) });
  clock = later(2_000 + 5_000);
  d.wake();
  await eventually(async () => (await delivery(id))?.status === "delivered", "sent again");
  expect(await delivery(id)).toMatchObject({ attempts: 2, lastStatusCode: 200 });
  expect(receiver.received).toHaveLength(2);
});
