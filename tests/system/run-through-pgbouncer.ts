/**
 * `npm run test:pgbouncer`: every suite that reaches TEST_DATABASE_URL's server, through
 * PgBouncer in transaction mode (docs/testing.md). Starts Debian's PgBouncer (installed when
 * missing and root) in front of that server with a `*` entry and runs the suites with
 * TEST_DATABASE_POOLER_URL set, so their Postgres variants (and the service processes they
 * start) connect as DATABASE_POOLER=pgbouncer does: pooled statements unprepared, LISTEN/NOTIFY
 * and migrations on the direct URL. TEST_DRIVERS=postgres leaves the PGlite variants out: they
 * never reach the pooler, and `npm test` runs them. Extra arguments replace the list;
 * `--list` prints it and what is left out, without running anything.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";
import postgres from "postgres";
import { ensurePgbouncer, startPgbouncer } from "../helpers/postgres-cluster.ts";
import { ROOT } from "../helpers/service-process.ts";

/** what a suite that reaches TEST_DATABASE_URL's server contains (tests/helpers/harness.ts) */
const REACHES_POSTGRES =
  /describeEachDriver|driverNames\(|TEST_DATABASE_URL|freshDatabase\("postgres"\)|useTestApp\("postgres"/;

/**
 * Suites that do not apply through a pooler in front of TEST_DATABASE_URL's server, and why.
 * Every other suite that reaches that server runs.
 */
const NOT_APPLICABLE: Record<string, string> = {
  // its own Postgres cluster and its own PgBouncer (transaction mode, pool of 2): the pooler's
  // own system test, which runs in `npm test`
  "tests/system/pgbouncer.test.ts": "starts a Postgres cluster and a PgBouncer of its own",
  // a primary and a streaming replica of its own, with the service pointed at both
  "tests/system/read-replicas.test.ts": "starts a primary and a replica of its own",
};

const args = process.argv.slice(2);
const listOnly = args.includes("--list");
const named = args.filter((arg) => arg !== "--list");

function selection(): { suites: string[]; postgresFree: string[] } {
  const all = [...new Glob("tests/**/*.test.ts").scanSync(ROOT)].sort();
  for (const file of Object.keys(NOT_APPLICABLE)) {
    if (!all.includes(file)) throw new Error(`NOT_APPLICABLE names ${file}, which is gone`);
  }
  const candidates = all.filter((file) => !(file in NOT_APPLICABLE));
  const reaches = (file: string) => REACHES_POSTGRES.test(readFileSync(join(ROOT, file), "utf8"));
  return {
    suites: candidates.filter(reaches),
    postgresFree: candidates.filter((file) => !reaches(file)),
  };
}

const { suites: applicable, postgresFree } = selection();
const suites = named.length > 0 ? named : applicable;
if (named.length === 0 || listOnly) {
  console.log(`${applicable.length} suites reach Postgres and run through PgBouncer.`);
  for (const [file, why] of Object.entries(NOT_APPLICABLE))
    console.log(`left out: ${file}: ${why}`);
  console.log(
    `left out, ${postgresFree.length} suites that never open TEST_DATABASE_URL's server (PGlite or no database; npm test runs them): ${postgresFree.join(" ")}`,
  );
}
if (listOnly) {
  console.log(suites.join("\n"));
  process.exit(0);
}

const base = process.env.TEST_DATABASE_URL;
if (!base) {
  console.error("test:pgbouncer needs TEST_DATABASE_URL (the Postgres PgBouncer sits in front of)");
  process.exit(1);
}
const missing = await ensurePgbouncer();
if (missing) {
  console.error(`test:pgbouncer cannot run: ${missing}`);
  process.exit(1);
}
const server = new URL(base);
// server sessions per database: 4, as many as each suite's pool (PGBOUNCER_POOL_SIZE to vary)
const poolSize = Number(process.env.PGBOUNCER_POOL_SIZE ?? 4);
const pgbouncer = await startPgbouncer({ port: Number(server.port || 5432) }, "*", poolSize);
console.log(
  `PgBouncer on 127.0.0.1:${pgbouncer.port} (transaction mode, pool ${poolSize}) → ${server.host}`,
);
const started = Date.now();
const child = Bun.spawn(
  ["bun", "test", "--parallel=2", "--no-isolate", "--timeout", "30000", ...suites],
  {
    cwd: ROOT,
    env: {
      ...process.env,
      TEST_DATABASE_POOLER_URL: pgbouncer.url(server.pathname.slice(1)),
      TEST_DRIVERS: "postgres",
    },
    stdout: "inherit",
    stderr: "inherit",
  },
);
let code = await child.exited;
let transactions: number;
try {
  transactions = await pooledTransactions(pgbouncer.port);
  // a failure's side of the story from the pooler: waits, refusals, lost server connections
  if (code !== 0) {
    const problems = pgbouncer
      .log()
      .split("\n")
      .filter((line) => /WARNING|ERROR|FATAL/.test(line));
    console.error(`PgBouncer's warnings and errors (last 40 of ${problems.length}):`);
    for (const line of problems.slice(-40)) console.error(`  ${line}`);
  }
} finally {
  await pgbouncer.stop();
}
console.log(
  `through PgBouncer: ${suites.length} suites in ${Math.round((Date.now() - started) / 1000)} s, ${transactions} transactions pooled`,
);
// a run whose suites all went straight to Postgres would prove nothing
if (code === 0 && transactions === 0) {
  console.error("no transaction went through PgBouncer");
  code = 1;
}
process.exit(code);

/** transactions PgBouncer carried to the server, from its admin console (SHOW STATS) */
async function pooledTransactions(port: number): Promise<number> {
  // the console speaks the simple protocol only: no type lookup on connecting
  const console_ = postgres({
    host: "127.0.0.1",
    port,
    database: "pgbouncer",
    user: "postgres",
    fetch_types: false,
  });
  try {
    const rows = await console_`show stats`.simple();
    return rows.reduce((sum, row) => sum + Number(row.total_xact_count ?? 0), 0);
  } finally {
    await console_.end();
  }
}
