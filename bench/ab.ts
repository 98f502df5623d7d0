/**
 * A/B of one route: the service built from another commit (A) against this working tree (B),
 * both over one bench database, loaded by wrk in interleaved rounds. A change's effect is
 * smaller than this machine's drift between two runs of bench/e2e.ts, so both sides run in the
 * same minutes, turn about, and the medians of their rounds are compared.
 *
 *   bun run bench/ab.ts --base=<commit> [--route=whoami|tickets|quota] [--rounds=8]
 *                       [--duration=3] [--connections=32] [--tickets=2000]
 *                       [--env-a=NAME=value,…] [--env-b=NAME=value,…] [--pin]
 *
 * `--base=HEAD` with `--env-a`/`--env-b` compares two settings of the same tree (the access
 * log off: `--env-b=LOG_LEVEL=warn`). A is checked out into a temporary git worktree (with this
 * tree's node_modules) and removed at the end. Needs wrk and TEST_DATABASE_URL's Postgres.
 */
import type { ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import {
  baseCheckout,
  benchDatabase,
  cpuMs,
  percentile,
  pinServers,
  Service,
  stopChildren,
} from "./e2e-lib.ts";
import { fullSpeed, wrk } from "./paced.ts";

const { values: flags } = parseArgs({
  options: {
    base: { type: "string" },
    route: { type: "string", default: "whoami" },
    rounds: { type: "string", default: "8" },
    duration: { type: "string", default: "3" },
    connections: { type: "string", default: "32" },
    tickets: { type: "string", default: "2000" },
    "env-a": { type: "string", default: "" },
    "env-b": { type: "string", default: "" },
    /** both services on CPU 0, wrk on the others (bench/e2e-lib.ts `pinServers`) */
    pin: { type: "boolean", default: false },
  },
});
if (!flags.base) throw new Error("--base=<commit> is required (HEAD compares two settings)");
const ROUTES: Record<string, string> = {
  whoami: "/api/v1/whoami",
  tickets: "/api/v1/tickets?limit=50",
  quota: "/api/v1/whoami",
};
const path = ROUTES[flags.route];
if (!path) throw new Error(`--route: one of ${Object.keys(ROUTES).join(", ")}`);
const rounds = Number(flags.rounds);
const duration = Number(flags.duration);
const connections = Number(flags.connections);

const envOf = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split(",")
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );

const base = baseCheckout(flags.base, "orgit-ab-");
const checkout = base.path;

if (flags.pin) pinServers();
wrk(); // found or installed before any load
const db = await benchDatabase("orgit_ab");
const children: ChildProcess[] = [];
try {
  // A first: its migrations are the older ones, B's run after them on the same database
  const a = await Service.start(db.url, children, undefined, envOf(flags["env-a"]), checkout);
  const b = await Service.start(db.url, children, undefined, envOf(flags["env-b"]));
  const fixture = await b.provision(Number(flags.tickets));
  const key = flags.route === "quota" ? fixture.spentKey : fixture.key;
  interface Side {
    name: string;
    service: Service;
    rates: number[];
    cpu: number[];
  }
  const sideA: Side = { name: `A ${flags.base}`, service: a, rates: [], cpu: [] };
  const sideB: Side = { name: "B this tree", service: b, rates: [], cpu: [] };
  for (const side of [sideA, sideB]) await fullSpeed(side.service.url + path, key, 1, connections); // warm
  for (let round = 0; round < rounds; round++) {
    // turn about, each side first every other round
    for (const side of round % 2 ? [sideB, sideA] : [sideA, sideB]) {
      const pid = side.service.pid();
      const before = cpuMs(pid);
      const run = await fullSpeed(side.service.url + path, key, duration, connections);
      if (run.failed > 0) console.warn(`  ${side.name}: ${run.failed} requests without an answer`);
      side.rates.push(run.rate);
      side.cpu.push(((cpuMs(pid) - before) * 1000) / (run.rate * duration));
    }
    const last = (side: Side) =>
      `${side.rates.at(-1)?.toFixed(0)} req/s ${side.cpu.at(-1)?.toFixed(1)} µs`;
    console.log(`round ${round + 1}: A ${last(sideA)}  B ${last(sideB)}`);
  }
  const median = (xs: number[]) => percentile(xs, 0.5);
  // the two sides of a round ran back to back: their ratio is spared the machine's slower
  // spells, which move both medians by more than a small change's effect
  const pairedRatio = (as: number[], bs: number[]) =>
    median(bs.map((value, i) => value / (as[i] as number))).toFixed(3);
  const ratio = (as: number[], bs: number[]) => (median(bs) / median(as)).toFixed(3);
  console.log(`\n${flags.route} (${path}), medians of ${rounds} rounds of ${duration} s:`);
  for (const side of [sideA, sideB])
    console.log(
      `  ${side.name}: ${median(side.rates).toFixed(0)} req/s, ${median(side.cpu).toFixed(1)} µs CPU a request`,
    );
  console.log(
    `  B / A: throughput ${ratio(sideA.rates, sideB.rates)}, CPU ${ratio(sideA.cpu, sideB.cpu)}`,
  );
  console.log(
    `  B / A, median of the rounds' own ratios: throughput ${pairedRatio(sideA.rates, sideB.rates)}, CPU ${pairedRatio(sideA.cpu, sideB.cpu)}`,
  );
} finally {
  await stopChildren(children);
  await db.drop();
  base.remove();
}
