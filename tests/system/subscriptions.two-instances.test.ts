import { afterAll, expect, test } from "bun:test";
import { freshDatabase } from "../helpers/harness.ts";
import { ROOT, type ServiceProcess, startServiceProcess } from "../helpers/service-process.ts";
import { sseEvents } from "../helpers/sse.ts";

/**
 * Two service processes on one Postgres: a dashboard streaming ticketEvents from instance A sees
 * a ticket updated through instance B within a second, through Postgres LISTEN/NOTIFY or, with
 * REDIS_URL, through Redis pub/sub (docs/decisions.md §17.7, §21); and a killed instance's
 * stream slots do not hold the key's limit.
 */
const BUN = `${ROOT}node_modules/.bin/bun`;
const ADMIN_TOKEN = "live-two-instances-operator-token";
const TICKET = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };
const SUBSCRIPTION = `subscription($id: ID) {
  ticketEvents(ticketId: $id, types: ["ticket.updated"]) { type ticket { id status version } }
}`;

const services: ServiceProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const service of services) await service.stop();
  for (const cleanup of cleanups) await cleanup();
});

/** Two instances on a fresh database, and a key of a new organization. */
async function twoInstances(env: Record<string, string> = {}) {
  const fresh = await freshDatabase("postgres");
  cleanups.push(() => fresh.drop());
  const start = (label: string) =>
    startServiceProcess({
      command: [BUN, "run", "src/index.ts"],
      adminToken: ADMIN_TOKEN,
      env: { ...fresh.serviceEnv, LOG_LEVEL: "warn", ...env },
      startTimeoutMs: 60_000,
      label,
    });
  const [a, b] = await Promise.all([start("instance A"), start("instance B")]);
  services.push(a, b);
  const { secret: key } = await a.provisionKey({
    organization: { name: "Live Co" },
    user: { email: "live@example.com", firstName: "L", lastName: "C" },
    key: { name: "dashboard", scopes: ["tickets:read", "tickets:write"], expiresIn: "NEVER" },
  });
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const subscribe = (on: ServiceProcess, variables: Record<string, unknown> = {}) =>
    fetch(`${on.base}/graphql`, {
      method: "POST",
      headers: { ...headers, accept: "text/event-stream" },
      body: JSON.stringify({ query: SUBSCRIPTION, variables }),
    });
  return { a, b, headers, subscribe };
}

const transports: { name: string; env: Record<string, string>; runs: boolean }[] = [
  { name: "Postgres LISTEN/NOTIFY", env: {}, runs: Boolean(process.env.TEST_DATABASE_URL) },
  {
    name: "Redis pub/sub (REDIS_URL)",
    env: { REDIS_URL: process.env.TEST_REDIS_URL ?? "" },
    runs: Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL),
  },
];

for (const transport of transports) {
  test.skipIf(!transport.runs)(
    `${transport.name}: an update through instance B reaches a subscription stream on instance A within a second`,
    async () => {
      const { a, b, headers, subscribe } = await twoInstances(transport.env);
      const created = await fetch(`${b.base}/api/v1/tickets`, {
        method: "POST",
        headers,
        body: JSON.stringify(TICKET),
      });
      expect(created.status, b.output()).toBe(201);
      const ticket = await created.json();

      const stream = await subscribe(a, { id: ticket.id });
      expect(stream.status, a.output()).toBe(200);
      const events = sseEvents(stream);
      // the stream is registered once its first bytes (yoga's opening ping) can be read
      const first = events.next(10_000);

      const sent = performance.now();
      const patched = await fetch(`${b.base}/api/v1/tickets/${ticket.id}`, {
        method: "PATCH",
        headers,
        body: JSON.stringify({ status: "in_progress" }),
      });
      expect(patched.status, b.output()).toBe(200);
      const event = await first;
      const elapsed = performance.now() - sent;
      expect(event.data.ticketEvents).toEqual({
        type: "ticket.updated",
        ticket: { id: ticket.id, status: "in_progress", version: 2 },
      });
      expect(elapsed, `seen on A ${Math.round(elapsed)} ms after the PATCH on B`).toBeLessThan(
        1000,
      );
      await events.close();
    },
    120_000,
  );
}

test.skipIf(!process.env.TEST_DATABASE_URL)(
  "the 10 streams per key hold across instances, and a killed instance's slots are taken back",
  async () => {
    const { a, b, subscribe } = await twoInstances();
    const held = [];
    for (let i = 0; i < 10; i++) {
      const response = await subscribe(a);
      expect(response.status, a.output()).toBe(200);
      held.push(sseEvents(response));
    }
    const refused = await subscribe(b);
    expect(refused.status, "B counts A's ten streams").toBe(429);
    expect(await refused.json()).toEqual({
      error: "At most 10 open subscription streams per API key; close one first",
    });
    await a.kill(); // no shutdown code runs: its slots are never given back
    // free as soon as Postgres has ended the dead instance's sessions, which it does in its own
    // time once the process is gone (milliseconds, more on a loaded machine): long before the
    // slots' 30 s expiry
    const killed = performance.now();
    let after = await subscribe(b);
    while (after.status === 429 && performance.now() - killed < 5_000) {
      await after.body?.cancel();
      await Bun.sleep(50);
      after = await subscribe(b);
    }
    expect(after.status, "the dead instance's slots are free once its sessions end").toBe(200);
    await sseEvents(after).close();
  },
  120_000,
);
