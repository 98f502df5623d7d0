/**
 * `npm run test:pgbouncer`: a representative part of the suite through PgBouncer in
 * transaction mode (docs/testing.md). Starts Debian's PgBouncer (installed when missing and
 * root) in front of TEST_DATABASE_URL's server with a `*` entry and runs the listed suites with
 * TEST_DATABASE_POOLER_URL set, so their Postgres variants connect as DATABASE_POOLER=pgbouncer
 * does: pooled statements unprepared, LISTEN/NOTIFY and migrations on the direct URL.
 * Extra arguments replace the list.
 */
import { ensurePgbouncer, startPgbouncer } from "../helpers/postgres-cluster.ts";

const SUITES = [
  // writes in transactions, lists, the outbox's NOTIFY, idempotency's advisory lock
  "tests/tickets/tickets.happy.test.ts",
  "tests/projects/projects.happy.test.ts",
  "tests/http/idempotency.test.ts",
  "tests/webhooks/webhooks.delivery.test.ts",
  "tests/limits/quota.happy.test.ts",
  "tests/changes/changes.happy.test.ts",
  "tests/auth/key-expiry.security.test.ts",
  // the audit recorder's batch: its rows and the per-key counts in one statement
  "tests/audit/audit.settings.test.ts",
];

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
const pgbouncer = await startPgbouncer({ port: Number(server.port || 5432) }, "*", 4);
const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : SUITES;
console.log(`PgBouncer on 127.0.0.1:${pgbouncer.port} (transaction mode) → ${server.host}`);
const child = Bun.spawn(["bun", "test", "--timeout", "30000", ...suites], {
  env: { ...process.env, TEST_DATABASE_POOLER_URL: pgbouncer.url(server.pathname.slice(1)) },
  stdout: "inherit",
  stderr: "inherit",
});
const code = await child.exited;
await pgbouncer.stop();
process.exit(code);
