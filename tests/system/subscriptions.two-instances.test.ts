import { afterAll, expect, test } from "bun:test";
import { freshDatabase } from "../helpers/harness.ts";
import { ROOT, type ServiceProcess, startServiceProcess } from "../helpers/service-process.ts";
import { sseEvents } from "../helpers/sse.ts";

/**
 * Two service processes on one Postgres: a dashboard streaming ticketEvents from instance A sees
 * a ticket updated through instance B within a second (docs/decisions.md §17.7).
 */
const BUN = `${ROOT}node_modules/.bin/bun`;
const ADMIN_TOKEN = "live-two-instances-operator-token";
const TICKET = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

const services: ServiceProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const service of services) await service.stop();
  for (const cleanup of cleanups) await cleanup();
});

test.skipIf(!process.env.TEST_DATABASE_URL)(
  "an update through instance B reaches a subscription stream on instance A within a second",
  async () => {
    const fresh = await freshDatabase("postgres");
    cleanups.push(() => fresh.drop());
    const start = (label: string) =>
      startServiceProcess({
        command: [BUN, "run", "src/index.ts"],
        adminToken: ADMIN_TOKEN,
        env: { DATABASE_URL: fresh.databaseUrl as string, LOG_LEVEL: "warn" },
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
    const created = await fetch(`${b.base}/api/v1/tickets`, {
      method: "POST",
      headers,
      body: JSON.stringify(TICKET),
    });
    expect(created.status, b.output()).toBe(201);
    const ticket = await created.json();

    const stream = await fetch(`${a.base}/graphql`, {
      method: "POST",
      headers: { ...headers, accept: "text/event-stream" },
      body: JSON.stringify({
        query: `subscription($id: ID) {
          ticketEvents(ticketId: $id, types: ["ticket.updated"]) { type ticket { id status version } }
        }`,
        variables: { id: ticket.id },
      }),
    });
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
    expect(elapsed, `seen on A ${Math.round(elapsed)} ms after the PATCH on B`).toBeLessThan(1000);
    await events.close();
  },
  120_000,
);
