import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Database, Executor } from "../../src/db/client.ts";
import {
  organizations,
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../../src/db/schema/index.ts";
import { createLogger } from "../../src/logger.ts";
import { claimDue, disableSubscription } from "../../src/outbox/delivery-store.ts";
import { type DispatcherOptions, WebhookDispatcher } from "../../src/outbox/dispatcher.ts";
import { recordEvent } from "../../src/outbox/outbox.ts";
import { WebhookSecretBox } from "../../src/outbox/secret-box.ts";
import { newWebhookSecret } from "../../src/outbox/signer.ts";
import { testDispatcherOptions } from "../helpers/dispatcher-options.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";

/**
 * WebhookDispatcher driven directly over one PGlite and a local receiver, on its own clock (src/outbox/dispatcher.ts):
 * each outcome's delivery row and
 * subscription state, the retry time, 410 and the 5-day disable, inactive subscriptions, the
 * retention purge and its schedule, and shutdown.
 */
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
let database: Database;
let organizationId: string;
let clock = new Date("2042-01-01T00:00:00.000Z");
const logs: { level: string; msg: string; [k: string]: unknown }[] = [];
const logger = createLogger("debug", (line) => logs.push(JSON.parse(line)));
const running: WebhookDispatcher[] = [];
const receivers: { stop(): void }[] = [];

const options = (overrides: Partial<DispatcherOptions> = {}): DispatcherOptions =>
  testDispatcherOptions({ pollMs: 50, ...overrides });
const dispatcher = async (overrides: Partial<DispatcherOptions> = {}, start = true) => {
  const d = new WebhookDispatcher(database, logger, () => clock, options(overrides));
  running.push(d);
  if (start) await d.start();
  return d;
};
const subscribe = async (
  script: number[],
  extra: { failingSince?: Date; events?: string[] } = {},
) => {
  const secret = newWebhookSecret();
  const receiver = startReceiver(() => secret, { script });
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
const emit = () =>
  recordEvent(database.db, {
    organizationId,
    type: "project.created",
    data: { project },
    now: clock,
  });
const delivery = async (subscriptionId: string) =>
  (
    await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, subscriptionId))
  )[0];
const subscription = async (id: string) =>
  (await database.db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, id)))[0];

beforeAll(async () => {
  fresh = await migratedPglite();
  database = fresh.database;
  const [org] = await database.db.insert(organizations).values({ name: "O" }).returning();
  organizationId = (org as { id: string }).id;
});

afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
  for (const r of receivers.splice(0)) r.stop();
  await database.db.delete(webhookSubscriptions);
  await database.db.delete(webhookEvents);
  logs.length = 0;
  clock = new Date(clock.getTime() + 30 * 86_400_000);
});

afterAll(() => fresh.drop());

test("a delivered attempt: delivered row with its time and status, failing streak ended", async () => {
  const since = new Date(clock.getTime() - 60_000);
  const { receiver, id } = await subscribe([200], { failingSince: since });
  await emit();
  await dispatcher();
  await eventually(async () => (await delivery(id))?.status === "delivered", "delivered");
  expect(receiver.received).toHaveLength(1);
  expect(await delivery(id)).toMatchObject({
    status: "delivered",
    attempts: 1,
    deliveredAt: clock,
    nextAttemptAt: null,
    leaseUntil: null,
    lastStatusCode: 200,
    lastError: null,
  });
  expect((await subscription(id))?.failingSince).toBeNull();
});

test("a failed attempt is retried after the schedule's delay; the last one fails the delivery", async () => {
  const { receiver, id } = await subscribe([500, 503, 500]);
  await emit();
  await dispatcher();
  await eventually(async () => (await delivery(id))?.attempts === 1, "first attempt");
  await eventually(async () => (await delivery(id))?.leaseUntil === null, "first outcome");
  expect(await delivery(id)).toMatchObject({
    status: "pending",
    lastStatusCode: 500,
    nextAttemptAt: new Date(clock.getTime() + 1_000),
  });
  const failing = clock;
  expect((await subscription(id))?.failingSince).toEqual(failing);
  clock = new Date(clock.getTime() + 1_000);
  await eventually(async () => (await delivery(id))?.lastStatusCode === 503, "second attempt");
  expect((await delivery(id))?.nextAttemptAt).toEqual(new Date(clock.getTime() + 2_000));
  // the streak keeps its start
  expect((await subscription(id))?.failingSince).toEqual(failing);
  clock = new Date(clock.getTime() + 2_000);
  await eventually(async () => (await delivery(id))?.status === "failed", "given up");
  expect(await delivery(id)).toMatchObject({
    attempts: 3,
    nextAttemptAt: null,
    lastStatusCode: 500,
  });
  expect(receiver.received).toHaveLength(3);
  expect((await subscription(id))?.active).toBe(true);
});

test("410 Gone fails the delivery and disables the subscription", async () => {
  const { id } = await subscribe([410]);
  await emit();
  await dispatcher();
  await eventually(async () => (await delivery(id))?.status === "failed", "failed");
  expect(await delivery(id)).toMatchObject({
    lastStatusCode: 410,
    lastError: "410 Gone: the subscription was disabled",
    nextAttemptAt: null,
  });
  expect(await subscription(id)).toMatchObject({
    active: false,
    disabledReason: "Receiver answered 410 Gone",
    updatedAt: clock,
  });
  expect(logs.find((l) => l.level === "warn")).toMatchObject({
    msg: "webhook subscription disabled",
    subscriptionId: id,
    reason: "410 Gone",
  });
});

test("failing for exactly 5 days disables the subscription; a moment less does not", async () => {
  const fiveDays = 5 * 86_400_000;
  const almost = await subscribe([500], { failingSince: new Date(clock.getTime() - fiveDays + 1) });
  const exactly = await subscribe([500], { failingSince: new Date(clock.getTime() - fiveDays) });
  await emit();
  await dispatcher();
  await eventually(
    async () => (await subscription(exactly.id))?.active === false,
    "disabled after 5 days",
  );
  await eventually(async () => (await delivery(almost.id))?.attempts === 1, "other attempted");
  await eventually(async () => (await delivery(almost.id))?.leaseUntil === null, "other done");
  expect(await subscription(exactly.id)).toMatchObject({ disabledReason: "Failing for 5 days" });
  expect(await subscription(almost.id)).toMatchObject({ active: true, disabledReason: null });
  expect(logs.filter((l) => l.level === "warn")).toMatchObject([
    {
      msg: "webhook subscription disabled",
      subscriptionId: exactly.id,
      reason: "failing for 5 days",
    },
  ]);
});

test("a disabled subscription is announced to the organization's webhook.disabled subscribers", async () => {
  const since = new Date(clock.getTime() - 5 * 86_400_000);
  const watcher = await subscribe([200], { events: ["webhook.disabled"] });
  const failing = await subscribe([500], { failingSince: since });
  const gone = await subscribe([410]);
  await emit();
  await dispatcher();
  await eventually(async () => (await subscription(gone.id))?.active === false, "410 disabled");
  await eventually(async () => (await subscription(failing.id))?.active === false, "5 days");
  await eventually(async () => watcher.receiver.received.length === 2, "both announced");
  const url = async (id: string) => (await subscription(id))?.url;
  const announced = (await database.db.select().from(webhookEvents))
    .filter((e) => e.type === "webhook.disabled")
    .map((e) => (e.payload as { data: unknown }).data);
  expect(announced).toHaveLength(2);
  expect(announced).toContainEqual({
    webhookId: failing.id,
    url: await url(failing.id),
    reason: "Failing for 5 days",
    failingSince: since.toISOString(),
  });
  expect(announced).toContainEqual({
    webhookId: gone.id,
    url: await url(gone.id),
    reason: "Receiver answered 410 Gone",
    failingSince: null,
  });
  expect(await subscription(watcher.id)).toMatchObject({ active: true });
});

test("a claim from a driver that hands jsonb over as text carries the parsed values", async () => {
  // postgres.js answers raw statements with an array of rows; jsonb may arrive as its text
  const payload = { type: "project.created", data: { project } };
  const sealed = { v: 1, iv: "aXY", data: "ZGF0YQ" };
  const row = {
    id: "d1",
    attempts: "2",
    subscription_id: "s1",
    url: "https://receiver.example/hook",
    secret: null,
    secret_sealed: JSON.stringify(sealed),
    previous_secret_sealed: null,
    previous_secret_until: "2042-01-02T00:00:00.000Z",
    active: true,
    failing_since: null,
    payload: JSON.stringify(payload),
  };
  const textDriver = { execute: async () => [row] } as unknown as Executor;
  const leaseUntil = new Date(clock.getTime() + 7_000);
  const options = { now: clock, leaseUntil, limit: 1, perSubscription: 1 };
  expect(await claimDue(textDriver, options)).toEqual([
    {
      id: "d1",
      attempts: 2,
      leaseUntil,
      subscriptionId: "s1",
      url: "https://receiver.example/hook",
      secret: null,
      secretSealed: sealed,
      previousSecretSealed: null,
      previousSecretUntil: new Date("2042-01-02T00:00:00.000Z"),
      active: true,
      failingSince: null,
      payload,
    },
  ]);
});

test("disabling a subscription already off changes nothing and announces nothing again", async () => {
  await subscribe([200], { events: ["webhook.disabled"] });
  const { id } = await subscribe([]);
  await disableSubscription(database.db, id, "Receiver answered 410 Gone", clock);
  const first = await subscription(id);
  await disableSubscription(database.db, id, "Failing for 5 days", new Date(clock.getTime() + 1));
  expect(await subscription(id)).toEqual(first);
  expect(first).toMatchObject({ active: false, disabledReason: "Receiver answered 410 Gone" });
  const announced = (await database.db.select().from(webhookEvents)).filter(
    (e) => e.type === "webhook.disabled",
  );
  expect(announced.map((e) => (e.payload as { data: { reason: string } }).data.reason)).toEqual([
    "Receiver answered 410 Gone",
  ]);
});

test("sealed secrets sign; the previous one too while the rotation's grace lasts, not from its end", async () => {
  const box = new WebhookSecretBox(undefined); // the development key, as the dispatcher's default
  const sealed = async (
    receiverSecret: "current" | "previous",
    previousSecretUntil: Date | null,
  ) => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const receiver = startReceiver(() => (receiverSecret === "current" ? current : previous));
    receivers.push(receiver);
    const [row] = await database.db
      .insert(webhookSubscriptions)
      .values({ organizationId, url: receiver.url, events: ["project.created"], secret: null })
      .returning({ id: webhookSubscriptions.id });
    const id = (row as { id: string }).id;
    await database.db
      .update(webhookSubscriptions)
      .set({
        secretSealed: await box.seal(id, current),
        previousSecretSealed: await box.seal(id, previous),
        previousSecretUntil,
      })
      .where(eq(webhookSubscriptions.id, id));
    return { receiver, id };
  };
  const later = new Date(clock.getTime() + 3_600_000);
  const onCurrent = await sealed("current", null);
  const inGrace = await sealed("previous", later);
  const graceOver = await sealed("previous", clock);
  await emit();
  await dispatcher();
  await eventually(async () => (await delivery(onCurrent.id))?.status === "delivered", "current");
  await eventually(async () => (await delivery(inGrace.id))?.status === "delivered", "previous");
  await eventually(async () => graceOver.receiver.rejected.length > 0, "grace over: refused");
  expect(graceOver.receiver.received).toEqual([]);
  expect(onCurrent.receiver.rejected).toEqual([]);
  expect(inGrace.receiver.rejected).toEqual([]);
});

test("a pending delivery of an inactive subscription fails unsent, its attempt not counted", async () => {
  const { receiver, id } = await subscribe([200]);
  await emit();
  await database.db
    .update(webhookSubscriptions)
    .set({ active: false })
    .where(eq(webhookSubscriptions.id, id));
  await dispatcher();
  await eventually(async () => (await delivery(id))?.status === "failed", "failed");
  expect(await delivery(id)).toMatchObject({
    attempts: 0,
    lastError: "Subscription disabled",
    nextAttemptAt: null,
  });
  expect(receiver.arrived).toEqual([]);
});

test("more due deliveries than free slots are all sent, in rounds", async () => {
  const { receiver, id } = await subscribe([]);
  for (let i = 0; i < 7; i++) await emit();
  await dispatcher({ concurrency: 2, pollMs: 60_000 });
  const statuses = async () =>
    (
      await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.subscriptionId, id))
    ).map((r) => r.status);
  // no poll: only the end of each send wakes the dispatcher for the next round
  await eventually(
    async () => (await statuses()).every((s) => s === "delivered"),
    "all seven delivered",
  );
  expect(receiver.deliveredIds().size).toBe(7);
  expect(await statuses()).toHaveLength(7);
});

test("purge: settled events past the retention go, in batches; scheduled after start", async () => {
  const { id } = await subscribe([]);
  const old = new Date(clock.getTime() - 86_400_000 - 1);
  const d = await dispatcher({ pollMs: 60_000 }, false);
  const oldClock = clock;
  clock = old;
  for (let i = 0; i < 3; i++) await emit();
  clock = oldClock;
  await emit();
  await database.db
    .update(webhookDeliveries)
    .set({ status: "delivered" })
    .where(eq(webhookDeliveries.subscriptionId, id));
  expect(await d.purge()).toBe(3);
  expect(await database.db.select().from(webhookEvents)).toHaveLength(1);
  expect(logs.find((l) => l.msg === "old webhook events purged")).toMatchObject({
    level: "info",
    events: 3,
    before: new Date(clock.getTime() - 86_400_000).toISOString(),
  });
  logs.length = 0;
  expect(await d.purge()).toBe(0);
  expect(logs).toEqual([]);
  // started with a short period, the purge runs by itself, again and again
  clock = new Date(clock.getTime() + 2 * 86_400_000);
  const timed = await dispatcher({ pollMs: 60_000, purgeEveryMs: 30 });
  await eventually(
    async () => (await database.db.select().from(webhookEvents)).length === 0,
    "purged",
  );
  clock = old;
  await emit();
  clock = new Date(oldClock.getTime() + 2 * 86_400_000);
  await database.db.update(webhookDeliveries).set({ status: "failed" });
  await eventually(
    async () => (await database.db.select().from(webhookEvents)).length === 0,
    "again",
  );
  await timed.stop();
});

test("stop: in-flight sends finish within the grace period; past it they are given back", async () => {
  const secret = newWebhookSecret();
  const slow = startReceiver(() => secret, { delayMs: 1_500 });
  receivers.push(slow);
  const [sub] = await database.db
    .insert(webhookSubscriptions)
    .values({ organizationId, url: slow.url, events: ["project.created"], secret })
    .returning();
  const id = (sub as { id: string }).id;
  await emit();
  const d = await dispatcher({ shutdownGraceMs: 100, timeoutMs: 5_000 });
  await eventually(async () => slow.arrived.length === 1, "send started");
  await d.stop();
  expect(await delivery(id)).toMatchObject({ status: "pending", attempts: 0, leaseUntil: null });
  // stopped: a wake-up sends no statement (a claim would start within this turn of the loop)
  const statements = database.stats.queries;
  d.wake();
  await new Promise((resolve) => setImmediate(resolve));
  expect(database.stats.queries).toBe(statements);
  expect(slow.arrived).toHaveLength(1);
  const patient = await dispatcher({ shutdownGraceMs: 5_000, timeoutMs: 5_000 });
  await eventually(async () => slow.arrived.length === 2, "sent again");
  await patient.stop();
  expect(await delivery(id)).toMatchObject({ status: "delivered", attempts: 1 });
});

test("an event recorded after start is sent on its NOTIFY, without waiting for the poll", async () => {
  const { receiver, id } = await subscribe([]);
  await dispatcher({ pollMs: 600_000 });
  await emit();
  await eventually(async () => (await delivery(id))?.status === "delivered", "woken by NOTIFY");
  expect(receiver.deliveredIds().size).toBe(1);
});
