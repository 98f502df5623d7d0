/**
 * End to end, over real HTTP on loopback: the service as deployed (`bun run start`, Postgres)
 * against its hand-written twin (bench/baseline-server.ts), both loaded at full speed by
 * autocannon (an npm dev dependency) in one run, interleaved round by round so that the
 * machine's noise falls on both alike, and again by wrk at full speed in the same rounds (the
 * independent harness's generator). Prints each pair's req/s, p50/p99 and the ratio against
 * the targets of docs/performance.md. The half-load p99 and the soak are paced by wrk
 * (Debian's `wrk`, installed by the bench when missing: bench/paced.ts).
 *
 *   npm run bench:e2e -- [--duration=3] [--rounds=3] [--connections=32] [--tickets=10000]
 *                        [--big]            an organization of 1,000,000 tickets, one client
 *                        [--writes]         + POST and PATCH /api/v1/tickets (e2e-writes.ts)
 *                        [--soak=600]       RSS after a soak at half load (seconds)
 *                        [--graphql]        only the /graphql pair: a repeated tickets query against
 *                                           GET /api/v1/tickets, both on orgit (e2e-graphql.ts)
 *                        [--profile=whoami|tickets|quota|graphql] only load that orgit route
 *                                           (graphql: the repeated tickets query), under
 *                                           `bun --cpu-prof-md`; the profile lands in bench/profiles
 *                        [--audit]          only the audit trail: whoami with recording on vs off,
 *                                           and filtered pages of a 1,000,000-row log (e2e-audit.ts)
 *                        [--pin]            the servers on CPU 0, the load generators on the others
 *
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; the
 * bench creates its own database there and drops it at the end.
 */
import { type ChildProcess, spawn } from "node:child_process";
import autocannon from "autocannon";
import { auditCost } from "./e2e-audit.ts";
import { bigOrganization } from "./e2e-big.ts";
import { autocannonLoad, graphqlPair, REST_TICKETS, TICKETS_BODY } from "./e2e-graphql.ts";
import {
  benchDatabase,
  cpuMs,
  type Load,
  pinServer,
  pinServers,
  Service,
  stopChildren,
  summary,
} from "./e2e-lib.ts";
import { writePath } from "./e2e-writes.ts";
import { fullSpeed, pacedLoad, wrk } from "./paced.ts";

const flags = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [name, value] = arg.replace(/^--/, "").split("=");
    return [name, value ?? "true"];
  }),
);
const DURATION = Number(flags.duration ?? 3);
const ROUNDS = Number(flags.rounds ?? 3);
const CONNECTIONS = Number(flags.connections ?? 32);
const TICKETS = Number(flags.tickets ?? 10_000);
const PROFILE = flags.profile as "whoami" | "tickets" | "quota" | "graphql" | undefined;
const SOAK = flags.soak ? Number(flags.soak === "true" ? 600 : flags.soak) : 0;

if (flags.pin) pinServers();
const benchDb = await benchDatabase("orgit_bench");
const databaseUrl = benchDb.url;

const children: ChildProcess[] = [];
// Ctrl-C stops the servers and drops the database too
process.once("SIGINT", () => void cleanUp().then(() => process.exit(130)));
let service: Service | undefined;
try {
  // --writes: the webhook the write path subscribes is a receiver on loopback
  const env: Record<string, string> = flags.writes ? { ALLOW_PRIVATE_WEBHOOK_URLS: "true" } : {};
  service = await Service.start(databaseUrl, children, PROFILE ? "bench/profiles" : undefined, env);
  if (flags.audit) {
    const options = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS, load };
    await auditCost(service, databaseUrl, children, options);
  }
  const fixture = flags.audit ? undefined : await service.provision(TICKETS);
  if (!fixture) {
    // --audit: measured above
  } else if (PROFILE === "graphql") {
    const options = { duration: DURATION, connections: CONNECTIONS };
    const graphql = `${service.url}/graphql`;
    const loaded = await autocannonLoad(graphql, fixture.key, options, undefined, TICKETS_BODY);
    console.log(`profiled ${PROFILE}: ${summary([loaded]).text.trim()} (req/s p50 p99)`);
  } else if (PROFILE) {
    const path = PROFILE === "tickets" ? REST_TICKETS : "/api/v1/whoami";
    const key = PROFILE === "quota" ? fixture.spentKey : fixture.key;
    const loaded = await load(`${service.url}${path}`, key);
    console.log(`profiled ${PROFILE}: ${summary([loaded]).text.trim()} (req/s p50 p99)`);
  } else if (flags.graphql) {
    wrk();
    const options = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };
    await graphqlPair(service, fixture.key, options);
  } else {
    await compare(service, fixture);
  }
} finally {
  await cleanUp();
}

async function cleanUp() {
  await stopChildren(children);
  await benchDb.drop();
}

/** Every pair, interleaved; the half-load p99s; the soak and the big organization if asked. */
async function compare(service: Service, fixture: Awaited<ReturnType<Service["provision"]>>) {
  wrk(); // found or installed before any load, so an install never falls inside a measurement
  const baselineChild = await startBaseline(databaseUrl, children);
  const baseline = baselineChild.url;
  const pids = { orgit: service.pid(), hand: baselineChild.pid };
  console.log(`orgit ${service.url}  baseline ${baseline}  (${CONNECTIONS} connections)\n`);

  const pairs: { name: string; path: string; key: string; target?: number; ref?: string }[] = [
    { name: "GET /api/v1/whoami", path: "/api/v1/whoami", key: fixture.key, target: 0.8 },
    {
      name: "GET /api/v1/tickets?limit=50",
      path: "/api/v1/tickets?limit=50",
      key: fixture.key,
      target: 0.9,
    },
    { name: "429 (daily quota spent)", path: "/api/v1/whoami", key: fixture.spentKey, target: 0.9 },
  ];
  const results = pairs.map(() => ({
    orgit: [] as Load[],
    hand: [] as Load[],
    wrkOrgit: [] as Load[],
    wrkHand: [] as Load[],
  }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, pair] of pairs.entries()) {
      const sides = [
        () =>
          load(`${service.url}${pair.path}`, pair.key, pids.orgit).then((r) =>
            results[i]?.orgit.push(r),
          ),
        () =>
          load(`${baseline}${pair.ref ?? pair.path}`, pair.key, pids.hand).then((r) =>
            results[i]?.hand.push(r),
          ),
      ];
      // the same pair again by wrk (the independent harness's generator), in the same order
      if (wrk()) {
        const result = results[i];
        sides.push(
          () =>
            wrkLoad(`${service.url}${pair.path}`, pair.key, pids.orgit).then((r) =>
              result?.wrkOrgit.push(r),
            ),
          () =>
            wrkLoad(`${baseline}${pair.ref ?? pair.path}`, pair.key, pids.hand).then((r) =>
              result?.wrkHand.push(r),
            ),
        );
      }
      if (round % 2 === 1) sides.reverse(); // neither side always runs first
      for (const side of sides) await side();
    }
  }
  // what a route costs Bun and Elysia with nothing behind it: the ceiling of every ratio
  const reference = summary([await load(`${baseline}/static`, "")]);
  console.log(`static JSON route by hand (reference): ${reference.text.trim()} (req/s p50 p99)\n`);
  console.log(
    "pair                          |       orgit req/s  p50   p99 | by hand req/s  p50   p99 | ratio  target",
  );
  for (const [i, pair] of pairs.entries()) {
    const o = summary(results[i]?.orgit ?? []);
    const h = summary(results[i]?.hand ?? []);
    const ratio = o.rps / h.rps;
    const verdict = pair.target
      ? `≥ ${pair.target} ${ratio >= pair.target ? "met" : "MISSED"}`
      : "";
    console.log(
      `${pair.name.padEnd(29)} | ${o.text} | ${h.text} | ${ratio.toFixed(2).padStart(5)}  ${verdict}`,
    );
  }

  if (wrk()) {
    console.log("\nthe same pairs by wrk at full speed (-t2, the same connections and rounds):");
    for (const [i, pair] of pairs.entries()) {
      const o = summary(results[i]?.wrkOrgit ?? []);
      const h = summary(results[i]?.wrkHand ?? []);
      const ratio = o.rps / h.rps;
      const verdict = pair.target
        ? `≥ ${pair.target} ${ratio >= pair.target ? "met" : "MISSED"}`
        : "";
      console.log(
        `${pair.name.padEnd(29)} | orgit ${Math.round(o.rps).toString().padStart(7)} | by hand ${Math.round(h.rps).toString().padStart(7)} | ${ratio.toFixed(2).padStart(5)}  ${verdict}  (CPU µs ${o.cpuUs.toFixed(0)} / ${h.cpuUs.toFixed(0)})`,
      );
    }
  }

  // CPU per request of each server process: steadier than req/s on a shared machine (it does
  // not count Postgres, where the twin's count(*) runs)
  console.log("\nserver process CPU per request (µs):");
  for (const [i, pair] of pairs.entries()) {
    const o = summary(results[i]?.orgit ?? []).cpuUs;
    const h = summary(results[i]?.hand ?? []).cpuUs;
    console.log(
      `  ${pair.name.padEnd(29)} orgit ${o.toFixed(0).padStart(6)}  by hand ${h.toFixed(0).padStart(6)}  by hand / orgit ${(h / o).toFixed(2)}`,
    );
  }

  // a dashboard's repeated /graphql query against the REST route it mirrors, both on orgit
  const options = { rounds: ROUNDS, duration: DURATION, connections: CONNECTIONS };
  await graphqlPair(service, fixture.key, options);

  // p99 at half of the measured maximum throughput (the service's own maximum), paced by wrk
  console.log("\np99 at half of the measured maximum (orgit), paced by wrk (bench/paced.ts):");
  for (const [i, budget] of [
    [0, 5],
    [1, 20],
  ] as const) {
    const pair = pairs[i];
    if (!pair || !wrk()) continue;
    const half = Math.round(summary(results[i]?.orgit ?? []).rps / 2);
    const seconds = Math.max(DURATION, 10);
    const paced = await pacedLoad(
      `${service.url}${pair.path}`,
      pair.key,
      half,
      seconds,
      CONNECTIONS,
    );
    if (paced.non2xx + paced.failed > 0)
      console.warn(`  ${paced.non2xx} answers not 2xx, ${paced.failed} requests without an answer`);
    console.log(
      `  ${pair.name.padEnd(29)} at ${half} req/s (${Math.round(paced.rate)} answered a second, pause ${paced.delayMs.toFixed(2)} ms): p50 ${paced.p50.toFixed(2)} ms, p99 ${paced.p99.toFixed(2)} ms (target < ${budget} ms: ${paced.p99 < budget ? "met" : "MISSED"})`,
    );
  }

  if (flags.writes) {
    await writePath(service, baseline, fixture, {
      rounds: ROUNDS,
      duration: DURATION,
      connections: CONNECTIONS,
      pids,
    });
  }
  if (SOAK > 0)
    await soak(
      service,
      pairs[0]?.path as string,
      fixture.key,
      summary(results[0]?.orgit ?? []).rps / 2,
    );
  if (flags.big) await bigOrganization(service, databaseUrl);
}

/** One autocannon run at full speed; every answer's latency kept (sub-millisecond, 429s included). */
async function load(
  target: string,
  key: string,
  /** the server process, whose CPU time is read before and after */
  pid?: number,
): Promise<Load> {
  const latencies: number[] = [];
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: key ? { authorization: `Bearer ${key}` } : {},
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
  if (statuses.size !== 1)
    console.warn(`  ${target}: mixed statuses ${JSON.stringify([...statuses])}`);
  const cpu = pid ? cpuMs(pid) - cpuBefore : 0;
  return { requests: result.requests.total, seconds: result.duration, latencies, cpuMs: cpu };
}

/** One wrk run at full speed, with the server process's CPU time around it. */
async function wrkLoad(target: string, key: string, pid: number): Promise<Load> {
  const cpuBefore = cpuMs(pid);
  const run = await fullSpeed(target, key, DURATION, CONNECTIONS);
  if (run.failed > 0) console.warn(`  ${target}: ${run.failed} requests without an answer`);
  const requests = Math.round(run.rate * DURATION);
  // wrk reports percentiles, not every latency: p50 and p99 stand in for the list
  return {
    requests,
    seconds: DURATION,
    latencies: [run.p50, run.p99],
    cpuMs: cpuMs(pid) - cpuBefore,
  };
}

async function startBaseline(
  url: string,
  into: ChildProcess[],
): Promise<{ url: string; pid: number }> {
  const child = spawn(process.execPath, ["run", "bench/baseline-server.ts"], {
    env: { ...process.env, DATABASE_URL: url, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  into.push(child);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = chunk.toString().match(/listening (\d+)/);
      if (match) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`baseline exited (${code})`)));
  });
  pinServer(child.pid as number);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number };
}

/** Half load for SOAK seconds, paced by wrk: RSS after the first minute and at the end (+10 %). */
async function soak(svc: Service, path: string, key: string, rate: number) {
  if (!wrk()) return;
  const firstAt = Math.min(60, SOAK / 2);
  console.log(`\nsoak: ${SOAK} s of ${path} at ${Math.round(rate)} req/s, paced by wrk`);
  // the first minute counts from here: it includes the 3 s calibration of the pause
  const run = pacedLoad(`${svc.url}${path}`, key, rate, SOAK, CONNECTIONS);
  const first = new Promise<number>((resolve) =>
    setTimeout(() => resolve(svc.rssMiB()), firstAt * 1000),
  );
  const paced = await run;
  const [after1, end] = [await first, svc.rssMiB()];
  const growth = end / after1 - 1;
  console.log(
    `  ${Math.round(paced.rate)} answered a second, p50 ${paced.p50.toFixed(2)} ms, p99 ${paced.p99.toFixed(2)} ms, ${paced.non2xx} not 2xx, ${paced.failed} without an answer`,
  );
  console.log(
    `  RSS after ${firstAt} s ${after1.toFixed(1)} MiB, at the end ${end.toFixed(1)} MiB: ${(growth * 100).toFixed(1)} % (target ≤ +10 %: ${growth <= 0.1 ? "met" : "MISSED"})`,
  );
}
