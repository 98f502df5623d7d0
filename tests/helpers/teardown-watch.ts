/**
 * A teardown that takes too long says why: a suite's afterAll that times out in CI otherwise
 * leaves only "a beforeEach/afterEach hook timed out". After WATCH_MS, and again every WATCH_MS,
 * `watchedTeardown` prints to stderr the step still running, the app's warnings and errors so far
 * (its shutdown logs which part it waits on, src/shutdown.ts) and what the sessions of the suite's
 * database are doing on the server.
 */
import postgres from "postgres";
import { watched } from "../../src/shutdown.ts";

const WATCH_MS = 10_000;

export interface TeardownContext {
  /** the app's captured log lines (buildTestApp's `logs`) */
  logs?: Record<string, unknown>[];
  /** the suite's own database on TEST_DATABASE_URL's server, when it has one */
  databaseUrl?: string;
}

export async function watchedTeardown(
  step: string,
  work: () => Promise<unknown>,
  context: TeardownContext = {},
): Promise<void> {
  let reporting = false; // one report at a time, however slow the server's answer
  await watched(work, WATCH_MS, (waitedMs) => {
    if (reporting) return;
    reporting = true;
    void report(step, waitedMs, context).finally(() => {
      reporting = false;
    });
  });
}

async function report(step: string, waitedMs: number, context: TeardownContext) {
  const lines = [`teardown: "${step}" still running after ${Math.round(waitedMs / 1000)} s`];
  const warnings = (context.logs ?? []).filter((l) => l.level === "warn" || l.level === "error");
  for (const line of warnings.slice(-20)) lines.push(`  app log: ${JSON.stringify(line)}`);
  const base = process.env.TEST_DATABASE_URL;
  if (context.databaseUrl && base) {
    const name = new URL(context.databaseUrl).pathname.slice(1);
    const admin = postgres(base, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      const sessions = await admin`
        select pid, state, wait_event_type, wait_event,
               round(extract(epoch from now() - xact_start)::numeric, 1) as in_transaction_s,
               pg_blocking_pids(pid) as blocked_by, left(query, 160) as query
        from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid() order by pid`;
      for (const s of sessions) lines.push(`  session: ${JSON.stringify(s)}`);
      if (sessions.length === 0) lines.push(`  no session on ${name}`);
    } catch (error) {
      lines.push(`  could not read pg_stat_activity: ${String(error)}`);
    } finally {
      await admin.end({ timeout: 1 });
    }
  }
  console.error(lines.join("\n"));
}
