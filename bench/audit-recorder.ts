/**
 * `bun run bench/audit-recorder.ts [--base=<commit>] [--requests=50000] [--rounds=15]`: what the
 * audit recorder alone costs this process a request (docs/performance.md, "The recorder
 * alone"), without HTTP or a load generator, whose noise on this machine is larger than a
 * change to the recorder. Whoami-like requests of one key (a fresh `crypto.randomUUID()` id
 * each, durations of a few hundredths) are handed to `AuditTrail.request`, which folds them and
 * writes them to TEST_DATABASE_URL's Postgres every 5,000 requests, as under load; rounds of
 * this tree's recorder, of `--base`'s (checked out into a temporary git worktree) and of no
 * recorder at all (the ids made, nothing recorded) take turns, and the medians of the process's
 * CPU a request are printed with each recorder's share (minus no recorder's). Postgres's own
 * CPU is not counted: bench/audit-writes.ts measures the backend.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createApp } from "../src/app.ts";
import { AuditTrail } from "../src/auth/audit-trail.ts";
import { createLogger } from "../src/logger.ts";
import { factories, freshDatabase, testConfig } from "../tests/helpers/harness.ts";
import { baseCheckout } from "./e2e-lib.ts";

const { values: flags } = parseArgs({
  options: {
    base: { type: "string" },
    requests: { type: "string", default: "50000" },
    rounds: { type: "string", default: "15" },
  },
});
const N = Number(flags.requests);
const ROUNDS = Number(flags.rounds);
process.env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";

type Recorder = Pick<AuditTrail, "request" | "flush" | "start" | "stop">;
type RecorderClass = new (...args: ConstructorParameters<typeof AuditTrail>) => Recorder;

const base = flags.base ? baseCheckout(flags.base, "orgit-recorder-") : undefined;
const Base = base
  ? ((await import(join(base.path, "src/auth/audit-trail.ts"))).AuditTrail as RecorderClass)
  : undefined;

const fresh = await freshDatabase("postgres");
const quiet = createLogger("warn", () => {});
const app = await createApp({
  config: testConfig({}),
  database: fresh.database,
  logger: quiet,
  webhooks: false,
  backgroundJobs: false,
  partitions: false,
});
const member = await factories(app).member({ plan: "ENTERPRISE" });
const options = { flushMs: 0, flushAtRequests: 5_000 };
const sides: [string, Recorder | null][] = [
  ["this tree", new AuditTrail(fresh.database, quiet, Date.now, options)],
];
if (Base) sides.push([`base ${flags.base}`, new Base(fresh.database, quiet, Date.now, options)]);
sides.push(["no recorder", null]);
for (const [, recorder] of sides) await recorder?.start();

/** CPU µs a request of N requests handed to `recorder` and written */
async function round(recorder: Recorder | null): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const requestId = crypto.randomUUID();
    recorder?.request({
      organizationId: member.organizationId,
      apiKeyId: member.apiKey.id,
      userId: member.user.id,
      method: "GET",
      route: "/api/v1/whoami",
      status: 200,
      durationMs: Math.round(Math.random() * 30) / 100 + 0.2,
      ip: "127.0.0.1",
      userAgent: "wrk",
      requestId,
    });
    if (i % 500 === 0) await Bun.sleep(0); // the written statements' answers are read
  }
  await recorder?.flush();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / N;
}

const measured = new Map<string, number[]>(sides.map(([name]) => [name, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (let k = 0; k < sides.length; k++) {
    const [name, recorder] = sides[(k + r) % sides.length] as [string, Recorder | null];
    measured.get(name)?.push(await round(recorder));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
const none = median(measured.get("no recorder") ?? []);
console.log(`the recorder alone, CPU µs a request (medians of ${ROUNDS} rounds of ${N}):`);
for (const [name, xs] of measured) {
  const m = median(xs);
  const share = name === "no recorder" ? "" : `  recording ${(m - none).toFixed(3)}`;
  console.log(`  ${name.padEnd(24)} ${m.toFixed(3)}${share}`);
}
for (const [, recorder] of sides) await recorder?.stop();
await app.stop();
await fresh.drop();
base?.remove();
process.exit(0);
