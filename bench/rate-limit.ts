/**
 * What the rate limiter and the daily quota cost: the same authenticated route
 * (GET /api/v1/whoami: key lookup from cache, GraphQL operation, JSON) served by two apps over
 * one in-memory PGlite, one built with `limits: false` (bare) and one with the in-process
 * buckets and the quota counter, measured side by side in alternating rounds.
 * Requests go through `app.handle` (no sockets), which makes the limiter's share look as
 * large as it can be.
 *
 *   npm run bench            (bun run bench/rate-limit.ts [seconds per round] [rounds])
 */
import { createApp, type OrgitApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import { createDatabase } from "../src/db/client.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { createLogger } from "../src/logger.ts";

const SECONDS = Number(process.argv[2] ?? 0.5);
const ROUNDS = Number(process.argv[3] ?? 30);
const CONCURRENCY = 16;

const config = loadConfig({
  ADMIN_TOKEN: "bench-operator-token-0123456789",
  LOG_LEVEL: "silent",
  // high enough that nothing is refused: the bench measures the cost of checking
  RATE_LIMIT_IP_PER_MIN: "999999999",
  RATE_LIMIT_KEY_PER_MIN: "999999999",
  RATE_LIMIT_BURST_PER_SEC: "999999999",
});
const logger = createLogger("silent");
const database = await createDatabase({});
const bare = await createApp({ config, database, logger, limits: false });
const limited = await createApp({ config, database, logger });

const organization = await bare.services.operator.createOrganization({
  name: "Bench",
  plan: "ENTERPRISE",
  dailyQuota: 1_000_000_000,
});
const user = await bare.services.operator.createUser({
  email: "bench@example.com",
  firstName: "Bench",
  lastName: "Mark",
});
await bare.services.operator.addMember({
  organizationId: organization.id,
  userId: user.id,
  role: "admin",
});
const { secret } = await bare.services.apiKeys.createApiKey({
  organizationId: organization.id,
  userId: user.id,
  name: "bench",
  scopes: ["equipment:read"],
  expiresIn: "NEVER",
});

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

async function run(app: OrgitApp, ms: number): Promise<Round> {
  const until = performance.now() + ms;
  const cpu = process.cpuUsage();
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const response = await app.handle(request());
      if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
      await response.arrayBuffer();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { rate: done / (ms / 1000), cpuMicros: (used.user + used.system) / done };
}

// warm both (JIT, key cache, quota totals loaded) before measuring
await run(bare, 1_000);
await run(limited, 1_000);

const rounds = { bare: [] as Round[], limited: [] as Round[] };
for (let round = 0; round < ROUNDS; round++) {
  // alternate which goes first so drift (GC, thermal, neighbours) does not favour one side
  const order = round % 2 === 0 ? (["bare", "limited"] as const) : (["limited", "bare"] as const);
  for (const name of order) {
    rounds[name].push(await run(name === "bare" ? bare : limited, SECONDS * 1000));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
const bareRate = median(rounds.bare.map((r) => r.rate));
const limitedRate = median(rounds.limited.map((r) => r.rate));
const bareCpu = median(rounds.bare.map((r) => r.cpuMicros));
const limitedCpu = median(rounds.limited.map((r) => r.cpuMicros));
// throughput of a single-threaded server is 1 / CPU time per request; the least disturbed
// round of each side (the minimum) is the steadiest estimate on a shared machine
const cpuRatio = bareCpu / limitedCpu;
const bestRatio =
  Math.min(...rounds.bare.map((r) => r.cpuMicros)) /
  Math.min(...rounds.limited.map((r) => r.cpuMicros));
// each round's two halves ran back to back under the same background load: the median of
// their ratios is the figure least moved by neighbours on a shared machine
const pairedRatio = median(
  rounds.bare.map((b, i) => b.cpuMicros / (rounds.limited[i]?.cpuMicros ?? Number.NaN)),
);
const wallRatio = limitedRate / bareRate;
console.log(
  `GET /api/v1/whoami via app.handle, ${CONCURRENCY} concurrent, ${ROUNDS}×${SECONDS}s rounds (medians)`,
);
console.log(
  `  bare route        ${bareRate.toFixed(0).padStart(7)} req/s  ${bareCpu.toFixed(1).padStart(6)} µs CPU/request  (req/s by round: ${list(rounds.bare.map((r) => r.rate))})`,
);
console.log(
  `  limiter + quota   ${limitedRate.toFixed(0).padStart(7)} req/s  ${limitedCpu.toFixed(1).padStart(6)} µs CPU/request  (req/s by round: ${list(rounds.limited.map((r) => r.rate))})`,
);
const percent = (ratio: number) => `${((1 - ratio) * 100).toFixed(1)}%`;
console.log(
  `  throughput ratio limited/bare: ${pairedRatio.toFixed(3)} (overhead ${percent(pairedRatio)}; target < 10%), median of paired rounds by CPU time`,
);
console.log(
  `    also: ${cpuRatio.toFixed(3)} by median CPU time, ${bestRatio.toFixed(3)} by best rounds, ${wallRatio.toFixed(3)} by wall clock`,
);

// the limiter path alone, without the route around it: per-request cost in microseconds
const limits = limited.services.limits;
if (limits) {
  const principal = await limited.services.keys.authenticate(secret);
  const iterations = 200_000;
  const started = performance.now();
  const req = request();
  for (let i = 0; i < iterations; i++) {
    const headers: Record<string, string> = {};
    await limits.beforeAuth(req, "/api/v1/whoami", headers);
    await limits.afterAuth(req, "/api/v1/whoami", principal, headers);
  }
  const micros = ((performance.now() - started) * 1000) / iterations;
  console.log(`  limiter + quota steps alone: ${micros.toFixed(2)} µs/request`);
}

await limited.stop();
await bare.stop();
await database.close();
process.exit(0);
