/**
 * What the rate limiter and the daily quota cost a route, in process (`app.handle`, no sockets).
 *
 * Several apps share one in-memory PGlite, in three sides:
 * - bare: built with `limits: false`;
 * - headers only: the limits with buckets that always answer the same tokens and a quota that
 *   counts in a field, so the app writes the contract's eight headers (docs/decisions.md §7) but
 *   limits and stores nothing: what those headers cost on their own;
 * - limiter + quota: the in-process buckets, the quota counter and its once-a-second flush.
 * Requests go to every app in turn, one at a time, so whatever else the machine does in a
 * moment lands on every side alike. Each request is timed from `handle` until its body is read
 * and the event loop has had a turn, as a socket read would give it: the access-log work Elysia
 * defers runs there. There are several apps a side because two identical apps in one process
 * differ by a few percent (each has its own compiled handlers and its own place in memory); the
 * bench prints that spread, which is its noise floor.
 *
 * Two routes:
 * - GET /api/v1/whoami: cached key, one GraphQL operation, no database. The cheapest keyed
 *   route, so the limiter's share is as large as it gets.
 * - GET /api/v1/equipments?limit=20: a typical list, two statements against the database.
 *
 *   npm run bench     (bun run bench/rate-limit.ts [blocks=300] [apps per side=3])
 */
import { createApp, type OrgitApp } from "../src/app.ts";
import { createDatabase } from "../src/db/client.ts";
import { equipment } from "../src/db/schema/index.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { requestMeta } from "../src/http/request-context.ts";
import { surfaceOf } from "../src/http/surfaces.ts";
import { createLogger } from "../src/logger.ts";
import {
  benchConfig,
  FixedBuckets,
  FixedQuota,
  median,
  provisionKey,
  SIDES,
  type Side,
  SideFigures,
} from "./fixture.ts";

const BLOCKS = Number(process.argv[2] ?? 300);
const PER_SIDE = Number(process.argv[3] ?? 3);

const logger = createLogger("silent");
const database = await createDatabase({});
const build = (side: Side) =>
  createApp({
    config: benchConfig,
    database,
    logger,
    limits: side !== "bare",
    ...(side === "headers" ? { limiter: new FixedBuckets(), quota: new FixedQuota() } : {}),
    webhooks: false,
  });
const apps: Record<Side, OrgitApp[]> = { bare: [], headers: [], limited: [] };
for (let i = 0; i < PER_SIDE; i++) {
  for (const side of SIDES) apps[side].push(await build(side));
}
const { secret, organizationId } = await provisionKey(apps.bare[0] as OrgitApp);
await database.db.insert(equipment).values(
  Array.from({ length: 50 }, (_, i) => ({
    organizationId,
    name: `bench-${i}`,
    type: "laptop" as const,
  })),
);

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One request, timed until its body is read and the event loop has turned (ms). */
async function timed(app: OrgitApp, path: string): Promise<number> {
  const started = performance.now();
  const request = setPeerAddress(
    new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${secret}` } }),
    "127.0.0.1",
  );
  const response = await app.handle(request);
  if (response.status !== 200) throw new Error(`${path}: unexpected ${response.status}`);
  await response.arrayBuffer();
  await nextTurn();
  return performance.now() - started;
}

/**
 * `perApp` requests to each app per block, apps taken in a rotating order. Each figure is the
 * median over blocks of the throughput lost: 1 − (one side's time / the other side's time).
 */
async function measure(path: string, perApp: number) {
  const all = SIDES.flatMap((side) => apps[side]);
  for (let i = 0; i < 2_000; i++) await timed(all[i % all.length] as OrgitApp, path); // warm
  const figures = new SideFigures(PER_SIDE);
  for (let block = 0; block < BLOCKS; block++) {
    const times = all.map(() => 0);
    for (let i = 0; i < perApp; i++) {
      for (let k = 0; k < all.length; k++) {
        const j = (k + i + block) % all.length;
        times[j] = (times[j] as number) + (await timed(all[j] as OrgitApp, path));
      }
    }
    figures.add(times);
  }
  console.log(`GET ${path}`);
  figures.report((ms) => (ms * 1000) / BLOCKS / perApp, "µs/request", `${BLOCKS} blocks`, "apps");
}

console.log(
  `${PER_SIDE} apps a side, requests to every app in turn, one at a time (${BLOCKS} blocks)`,
);
await measure("/api/v1/whoami", 100);
await measure("/api/v1/equipments?limit=20", 10);

// the limiter path alone, without the route around it: per-request cost in microseconds
const limited = apps.limited[0] as OrgitApp;
const limits = limited.services.limits;
const principal = await limited.services.keys.authenticate(secret);
const req = setPeerAddress(new Request("http://localhost/api/v1/whoami"), "127.0.0.1");
await limited.handle(req); // gives the request its context (client IP)
const meta = requestMeta(req);
if (!meta) throw new Error("no request context");
const surface = surfaceOf("/api/v1/whoami", true);
const iterations = 500_000;
const samples: number[] = [];
for (let sample = 0; sample < 5; sample++) {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    const headers: Record<string, string> = Object.create(null);
    const step = limits.limit(surface, meta.client, principal, headers);
    // settles synchronously in the steady state: anything else is worth knowing
    if (step instanceof Promise) throw new Error("not synchronous");
  }
  samples.push(((performance.now() - started) * 1000) / iterations);
}
console.log(
  `limiter + quota steps alone (IP, key and burst buckets, quota, 8 headers): ${median(samples).toFixed(2)} µs/request`,
);

for (const app of SIDES.flatMap((side) => apps[side])) await app.stop();
await database.close();
process.exit(0);
