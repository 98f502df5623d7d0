import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { OrgitApp } from "../../src/app.ts";
import { notifyLive } from "../../src/outbox/live.ts";
import { RedisStreamSlots } from "../../src/outbox/live-slots.ts";
import {
  buildTestApp,
  type Factories,
  type FreshDatabase,
  factories,
  freshDatabase,
  send,
} from "../helpers/harness.ts";
import { call, VALID_TICKET } from "../helpers/lifecycle.ts";
import { sseEvents } from "../helpers/sse.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * Two instances on one Postgres with REDIS_URL (docs/decisions.md §21): live events travel by
 * Redis pub/sub, published once their transaction has committed, and the 10 streams per key
 * are counted in Redis for both instances together; a slot nobody renews any more expires.
 * Runs with TEST_DATABASE_URL and TEST_REDIS_URL.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const SCOPES = ["tickets:read", "tickets:write"];
const TICKETS = `subscription { ticketEvents { type ticket { id title status version } } }`;
const LIMIT = "At most 10 open subscription streams per API key; close one first";

describe.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)("live updates through Redis", () => {
  const prefix = `orgit:test:${crypto.randomUUID()}:`;
  const clients: RedisClient[] = [];
  const client = () => {
    const c = new RedisClient(redisUrl);
    clients.push(c);
    return c;
  };
  let fresh: FreshDatabase;
  let a: OrgitApp;
  let b: OrgitApp;
  let make: Factories;
  /** what Redis carried on the live channel, as a third party listening there sees it */
  const carried: string[] = [];

  /** the Redis connection id of B's subscriber, to cut it */
  let bSubscriber = "";
  const instance = async (database: FreshDatabase["database"], subscriber = client()) =>
    buildTestApp(database, {
      redis: client(),
      redisSubscriber: subscriber,
      redisPrefix: prefix,
    });
  const subscribe = (app: OrgitApp, key: string) =>
    send(app, "/graphql", {
      key,
      method: "POST",
      headers: { accept: "text/event-stream" },
      body: { query: TICKETS },
    });

  beforeAll(async () => {
    fresh = await freshDatabase("postgres");
    a = await instance(fresh.database);
    const subscriber = client();
    await subscriber.connect();
    bSubscriber = String(await subscriber.send("CLIENT", ["ID"]));
    b = await instance(await fresh.openAnother(), subscriber);
    make = factories(a);
    await client().subscribe(`${prefix}orgit_live`, (message) => carried.push(message));
  });

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    const cleaner = client();
    const keys = (await cleaner.send("KEYS", [`${prefix}*`])) as string[];
    if (keys.length > 0) await cleaner.send("DEL", keys);
    for (const c of clients) c.close();
    await fresh?.drop();
  });

  test("a ticket updated through instance A reaches a stream on instance B, carried by Redis", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const ticket = await call(a, "/api/v1/tickets", { key, body: VALID_TICKET });
    expect(ticket.status).toBe(201);
    const stream = sseEvents(await subscribe(b, key));
    const sent = performance.now();
    const patched = await call(a, `/api/v1/tickets/${ticket.body.id}`, {
      key,
      method: "PATCH",
      body: { status: "in_progress" },
    });
    expect(patched.status).toBe(200);
    const event = await stream.next();
    const elapsed = performance.now() - sent;
    expect(event.data.ticketEvents).toEqual({
      type: "ticket.updated",
      ticket: { id: ticket.body.id, title: VALID_TICKET.title, status: "in_progress", version: 2 },
    });
    expect(elapsed, `seen on B ${Math.round(elapsed)} ms after the PATCH on A`).toBeLessThan(1000);
    await eventually(
      () => carried.some((m) => m.includes('"ticket.updated"') && m.includes(ticket.body.id)),
      "the event on the Redis channel",
    );
    await stream.close();
  });

  test("instance B's subscription comes back after its Redis connection was cut", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const ticket = await call(a, "/api/v1/tickets", { key, body: VALID_TICKET });
    const killed = await client().send("CLIENT", ["KILL", "ID", bSubscriber]);
    expect(Number(killed), "B's subscriber connection cut").toBe(1);
    const stream = sseEvents(await subscribe(b, key));
    // B reconnects by itself; until it has subscribed again, changes are missed, as with LISTEN
    let title = 0;
    await eventually(async () => {
      title++;
      await call(a, `/api/v1/tickets/${ticket.body.id}`, {
        key,
        method: "PATCH",
        body: { title: `Printer jams, take ${title}` },
      });
      return (await stream.next(500).catch(() => undefined)) !== undefined;
    }, "an update on A seen on B again");
    await stream.close();
  });

  test("a change rolled back is never published; the next committed one is", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const stream = sseEvents(await subscribe(b, key));
    const event = (title: string) => ({
      type: "ticket.updated",
      occurredAt: new Date().toISOString(),
      organizationId,
      resource: "ticket" as const,
      record: { id: crypto.randomUUID(), title, status: "open", version: 1 },
      changes: [],
    });
    const undone = a.services.database.db.transaction(async (tx) => {
      await notifyLive(tx, event("Rolled back"));
      throw new Error("undone");
    });
    await expect(undone).rejects.toThrow("undone");
    await a.services.database.db.transaction((tx) => notifyLive(tx, event("Committed")));
    // events arrive in order: the first one seen proves the rolled-back one never went out
    expect((await stream.next()).data.ticketEvents.ticket.title).toBe("Committed");
    expect(carried.some((m) => m.includes("Rolled back"))).toBe(false);
    await stream.close();
  });

  test("10 streams per key across both instances: the 11th is 429 on either; closing one frees it", async () => {
    const { key, apiKey } = await make.member({ scopes: SCOPES });
    const open = [];
    for (let i = 0; i < 10; i++) {
      const response = await subscribe(i % 2 === 0 ? a : b, key);
      expect(response.status, `stream ${i + 1}`).toBe(200);
      open.push(sseEvents(response));
    }
    expect(a.services.live.openStreams(apiKey.id)).toBe(5);
    expect(await b.services.live.heldStreams(apiKey.id)).toBe(10);
    for (const app of [a, b]) {
      const refused = await subscribe(app, key);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: LIMIT });
    }
    await open.pop()?.close(); // one of B's
    await eventually(async () => (await a.services.live.heldStreams(apiKey.id)) === 9, "freed");
    const again = await subscribe(a, key);
    expect(again.status, "A takes the slot B gave back").toBe(200);
    open.push(sseEvents(again));
    for (const stream of open) await stream.close();
    await eventually(async () => (await a.services.live.heldStreams(apiKey.id)) === 0, "all back");
  });

  test("slots an instance stopped renewing (it died) expire; then the key streams again", async () => {
    const { key, apiKey } = await make.member({ scopes: SCOPES });
    // what a killed instance leaves: ten slots it will never renew nor give back
    const dead = new RedisStreamSlots(client(), `${prefix}live:slots:`, {
      ttlMs: 1_500,
      renewMs: 500,
    });
    for (let i = 0; i < 10; i++) {
      expect(await dead.take(apiKey.id, crypto.randomUUID(), 10)).toBe(true);
    }
    expect((await subscribe(b, key)).status).toBe(429);
    await Bun.sleep(1_600);
    const response = await subscribe(b, key);
    expect(response.status, "the dead instance's slots expired").toBe(200);
    await sseEvents(response).close();
  });
});
