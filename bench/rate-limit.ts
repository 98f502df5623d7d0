/**
 * What the rate limiter and the daily quota cost: the same authenticated route
 * (GET /api/v1/whoami: key lookup from cache, GraphQL operation, JSON) served by two apps over
 * one in-memory PGlite, one built with `limits: false` (bare) and one with the in-process
 * buckets, the quota counter and its once-a-second flush, measured side by side in many short
 * alternating rounds. The figure is the median of the rounds' paired ratios.
 * Requests go through `app.handle` (no sockets), which makes the limiter's share look as
 * large as it can be. Each request is followed by a turn of the event loop, as a socket read
 * would give: without it, work Elysia defers with setImmediate (the access log) piles up for
 * a whole round and is paid by whichever app runs next. Webhook dispatchers are off (their
 * polling is the same in both apps and only adds noise).
 *
 *   npm run bench            (bun run bench/rate-limit.ts [requests per round] [rounds])
 */
import { createApp, type OrgitApp } from "../src/app.ts";
import { createDatabase } from "../src/db/client.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { requestMeta } from "../src/http/request-context.ts";
import { createLogger } from "../src/logger.ts";
import { benchConfig, provisionKey } from "./fixture.ts";

const PER_ROUND = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 300);
const CONCURRENCY = 16;

const config = benchConfig;
const logger = createLogger("silent");
const database = await createDatabase({});
const bare = await createApp({ config, database, logger, limits: false, webhooks: false });
const limited = await createApp({ config, database, logger, webhooks: false });
const secret = await provisionKey(bare);

const request = () =>
  setPeerAddress(
    new Request("http://localhost/api/v1/whoami", {
      headers: { authorization: `Bearer ${secret}` },
    }),
    "127.0.0.1",
  );

interface Round {
  /** requests per second of wall time */
  rate: number;
  /** CPU time of this process per request: steadier than wall time on a busy machine */
  cpuMicros: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function run(app: OrgitApp, requests: number): Promise<Round> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let left = requests;
  const worker = async () => {
    while (left-- > 0) {
      const response = await app.handle(request());
      if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
      await response.arrayBuffer();
      await nextTurn();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  return { rate: requests / seconds, cpuMicros: (used.user + used.system) / requests };
}

// warm both (JIT, key cache, quota totals loaded) before measuring
for (let i = 0; i < 5; i++) {
  await run(bare, 5_000);
  await run(limited, 5_000);
}

const rounds = { bare: [] as Round[], limited: [] as Round[] };
for (let round = 0; round < ROUNDS; round++) {
  // alternate which goes first so drift (GC, thermal, neighbours) does not favour one side
  const order = round % 2 === 0 ? (["bare", "limited"] as const) : (["limited", "bare"] as const);
  for (const name of order) {
    rounds[name].push(await run(name === "bare" ? bare : limited, PER_ROUND));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const quartiles = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.floor((sorted.length - 1) * q)] ?? 0;
  return `${at(0.25).toFixed(0)}–${at(0.75).toFixed(0)}`;
};
const paired = (key: keyof Round, higherIsBetter: boolean) =>
  median(
    rounds.bare.map((b, i) => {
      const l = rounds.limited[i];
      if (!l) return Number.NaN;
      return higherIsBetter ? l[key] / b[key] : b[key] / l[key];
    }),
  );
// each round's two halves ran back to back under the same background load, so the median of
// their ratios is the figure least moved by neighbours on a shared machine
const wallRatio = paired("rate", true);
const cpuRatio = paired("cpuMicros", false);
const describe = (name: string, xs: Round[]) =>
  `  ${name.padEnd(16)}  ${median(xs.map((r) => r.rate))
    .toFixed(0)
    .padStart(7)} req/s (middle half of rounds ${quartiles(xs.map((r) => r.rate))})  ${median(
    xs.map((r) => r.cpuMicros),
  )
    .toFixed(1)
    .padStart(5)} µs CPU/request`;
const percent = (ratio: number) => `${((1 - ratio) * 100).toFixed(1)}%`;
console.log(
  `GET /api/v1/whoami via app.handle, ${CONCURRENCY} concurrent, ${ROUNDS} paired rounds of ${PER_ROUND} requests (medians)`,
);
console.log(describe("bare route", rounds.bare));
console.log(describe("limiter + quota", rounds.limited));
console.log(
  `  throughput limited/bare: ${wallRatio.toFixed(3)}, overhead ${percent(wallRatio)} (target < 10%): median of the paired rounds' ratios`,
);
console.log(`    by CPU time per request instead: overhead ${percent(cpuRatio)}`);

// the limiter path alone, without the route around it: per-request cost in microseconds
const limits = limited.services.limits;
if (limits) {
  const principal = await limited.services.keys.authenticate(secret);
  const req = request();
  await limited.handle(req); // gives the request its context (client IP), as the app does
  const meta = requestMeta(req);
  if (!meta) throw new Error("no request context");
  const iterations = 500_000;
  const samples: number[] = [];
  for (let sample = 0; sample < 5; sample++) {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) {
      const headers: Record<string, string> = Object.create(null);
      meta.ipBucketPending = false;
      const early = limits.beforeAuth(req, "/api/v1/whoami", headers);
      const step = limits.afterAuth(meta, "/api/v1/whoami", principal, headers);
      // both settle synchronously in the steady state: anything else is worth knowing
      if (early instanceof Promise || step instanceof Promise) throw new Error("not synchronous");
    }
    samples.push(((performance.now() - started) * 1000) / iterations);
  }
  console.log(
    `  limiter + quota steps alone (IP, key and burst buckets, quota, 8 headers): ${median(samples).toFixed(2)} µs/request`,
  );
}

await limited.stop();
await bare.stop();
await database.close();
process.exit(0);
