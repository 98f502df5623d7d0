/**
 * `bun run bench/whoami-parts.ts [requests a round] [rounds]`: where whoami's CPU goes, apart
 * from HTTP and the load generator (docs/performance.md, "Whoami taken apart in one process").
 * Builds of the app over one fresh database (TEST_DATABASE_URL's Postgres): as deployed, without
 * the access log, without the audit trail, without rate limits and quota, without all three;
 * and the twin's whoami (bench/baseline-server.ts's work: the key hashed and looked up, the
 * headers, the same JSON) as an Elysia route in the same process. Each answers the same whoami
 * through its fetch handler, the builds taking turns round by round, and the medians of the
 * process's CPU a request are printed, with their ratio to the twin's.
 */
import { createHash } from "node:crypto";
import { Elysia } from "elysia";
import { createApp } from "../src/app.ts";
import { setPeerAddress } from "../src/http/peer.ts";
import { createLogger } from "../src/logger.ts";
import { factories, freshDatabase, testConfig } from "../tests/helpers/harness.ts";

const [requests = "10000", roundCount = "20"] = process.argv.slice(2);
const N = Number(requests);
const ROUNDS = Number(roundCount);
process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";

const fresh = await freshDatabase("postgres");
/** the service as `npm start` builds it, but for the settings named; its log lines dropped */
async function build(env: Record<string, string>, limits = true) {
  const config = testConfig({ LOG_LEVEL: "info", ...env });
  return createApp({
    config,
    database: fresh.database,
    logger: createLogger(config.logLevel, () => {}),
    webhooks: false,
    backgroundJobs: false,
    partitions: false,
    limits: limits ? undefined : false,
  });
}
const deployed = await build({});
const member = await factories(deployed).member({ plan: "ENTERPRISE" });
const builds = [
  ["as deployed", deployed],
  ["without the access log", await build({ LOG_LEVEL: "warn" })],
  ["without the audit trail", await build({ AUDIT_LOG: "false" })],
  ["without limits and quota", await build({}, false)],
  ["without all three", await build({ LOG_LEVEL: "warn", AUDIT_LOG: "false" }, false)],
] as const;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");
const keys = new Map([[digest(member.key), member]]);
const twin = new Elysia().get("/api/v1/whoami", ({ request, set }) => {
  const headers = set.headers as Record<string, string>;
  headers["x-request-id"] = crypto.randomUUID();
  const found = keys.get(digest(request.headers.get("authorization")?.slice(7) ?? ""));
  if (!found) return new Response(null, { status: 401 });
  Object.assign(headers, TWIN_HEADERS);
  return {
    organization: { id: found.organizationId, name: "Org" },
    user: { id: found.user.id, role: "admin" },
    apiKey: { name: found.apiKey.name, scopes: found.apiKey.scopes, expiresAt: null },
  };
});
const TWIN_HEADERS = {
  "x-ratelimit-limit": "999999999",
  "x-ratelimit-remaining": "999999998",
  "x-ratelimit-reset": "1",
  ratelimit: '"burst";r=999999998;t=1',
  "ratelimit-policy": '"key";q=999999999;w=60',
  "x-quota-limit": "1000000000",
  "x-quota-remaining": "999999999",
  "x-quota-reset": "86400",
};
twin.compile();
const twinFetch = twin.fetch;

type Handle = (request: Request) => Promise<Response>;
const sides: [string, Handle][] = [
  ...builds.map(([name, app]): [string, Handle] => [name, app.handle]),
  ["the twin's route, by hand", (request) => Promise.resolve(twinFetch(request))],
];
const whoami = () =>
  setPeerAddress(
    new Request("http://localhost/api/v1/whoami", {
      headers: { authorization: `Bearer ${member.key}`, "user-agent": "bench" },
    }),
    "127.0.0.1",
  );
for (const [name, handle] of sides) {
  const response = await handle(whoami());
  if (response.status !== 200) throw new Error(`${name}: whoami answered ${response.status}`);
}

/** CPU µs a request of `n` requests through `handle`, the event loop let run every 200 */
async function cpuPerRequest(handle: Handle, n: number): Promise<number> {
  await Bun.sleep(50);
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    await (await handle(whoami())).arrayBuffer();
    if (i % 200 === 0) await Bun.sleep(0); // timers run: the log's and the audit's flushes
  }
  await Bun.sleep(50);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

const measured = new Map<string, number[]>(sides.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < sides.length; k++) {
    const [name, handle] = sides[(k + round) % sides.length] as [string, Handle];
    measured.get(name)?.push(await cpuPerRequest(handle, N));
  }
}
const floor = await cpuPerRequest(async () => Response.json({ a: whoami().url }), N);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
const twinMedian = median(measured.get("the twin's route, by hand") ?? []);
console.log(`whoami in one process, CPU µs a request (median of ${ROUNDS} rounds of ${N}):`);
for (const [name, xs] of measured) {
  const m = median(xs);
  const range = `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
  console.log(
    `  ${name.padEnd(28)} ${m.toFixed(2).padStart(6)}  twin / this ${(twinMedian / m).toFixed(2)}  (rounds ${range})`,
  );
}
console.log(`  a Request made and Response.json read: ${floor.toFixed(2)}`);
for (const [, app] of builds) await app.stop();
await fresh.drop();
process.exit(0);
