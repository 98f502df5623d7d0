/**
 * `bun run bench/audit-writes.ts [json|copy] [indexes] [organizations] [keys] [rows per batch]
 * [rows in all]`:
 * what writing one audit
 * row costs each side, apart from HTTP and the load generator (docs/performance.md,
 * "Recording's cost"). A fresh database at the migrations' schema; 50,000 rows (by default) in batches
 * built beforehand, written one after the other over one connection as the recorder does;
 * then the CPU that connection's Postgres backend spent (from /proc, 10 ms ticks) and this
 * process's, per row.
 *
 * json: the recorder's statement (`insertAuditRows`: the rows and the per-key counts).
 * copy: COPY FROM STDIN in text format with a hand-written encoder (measured, not kept).
 * indexes: `all` (the migrations'), `none`, `no-key`, `no-key-ip`, `org-only`, `ascending`.
 */
import postgres from "postgres";
import { createDatabase } from "../src/db/client.ts";
import { type AuditTuple, insertAuditRows } from "../src/db/queries/audit-log.ts";
import { ensureDayPartitions } from "../src/db/queries/audit-partitions.ts";
import { benchDatabase, cpuMs } from "./e2e-lib.ts";

const [
  mode = "json",
  indexes = "all",
  orgCount = "1",
  keyCount = "10",
  batchRows = "1000",
  totalRows = "50000",
] = process.argv.slice(2);
const ROWS = Number(batchRows);
const BATCHES = Math.max(1, Math.round(Number(totalRows) / ROWS));
const drop = (...names: string[]) => names.map((name) => `drop index audit_log_${name}_idx`);
const VARIANTS: Record<string, string[]> = {
  all: [],
  none: drop("organization_at", "api_key_at", "errors_at", "ip_at"),
  "no-key": drop("api_key_at"),
  "no-key-ip": drop("api_key_at", "ip_at"),
  "org-only": drop("api_key_at", "errors_at", "ip_at"),
  ascending: [
    ...drop("organization_at", "api_key_at", "errors_at", "ip_at"),
    "create index o on audit_log (organization_id, at, id, status, route, ip, user_id)",
    "create index k on audit_log (api_key_id, at, id) where api_key_id is not null",
    "create index e on audit_log (organization_id, at, id, status, route) where status >= 400",
    "create index i on audit_log (organization_id, ip, at, id)",
  ],
};

const { name, url, admin, drop: dropDatabase } = await benchDatabase("orgit_writes");

/** COPY's text format: tab-separated, `\N` for null, backslash, tab and newlines escaped. */
const escaped = (value: string) =>
  /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n" })[c] ?? "\\r")
    : value;
const text = (value: AuditTuple[number]) =>
  value === null ? "\\N" : typeof value === "string" ? escaped(value) : String(value);
let second = -1;
let prefix = "";
const timestamp = (ms: number) => {
  const s = Math.floor(ms / 1000);
  if (s !== second) [second, prefix] = [s, new Date(s * 1000).toISOString().slice(0, 20)];
  return `${prefix}${String(ms - s * 1000).padStart(3, "0")}Z`;
};
const copyText = (rows: AuditTuple[]) =>
  Buffer.from(
    rows
      .map((r) => {
        const detail = r[12] === null ? "\\N" : escaped(JSON.stringify(r[12]));
        return `${timestamp(r[0])}\t${r.slice(1, 12).map(text).join("\t")}\t${detail}\n`;
      })
      .join(""),
  );

try {
  const database = await createDatabase({ databaseUrl: url, poolSize: 1 });
  await ensureDayPartitions(database.db, [Date.now()]);
  const raw = postgres(url, { max: 1, onnotice: () => {} });
  for (const statement of VARIANTS[indexes] ?? []) await raw.unsafe(statement);
  const organizations = Array.from({ length: Number(orgCount) }, () => crypto.randomUUID());
  const keys = Array.from({ length: Number(keyCount) }, () => crypto.randomUUID());
  const user = crypto.randomUUID();
  const batch = () =>
    Array.from(
      { length: ROWS },
      (_, i): AuditTuple => [
        Date.now(),
        organizations[i % organizations.length] as string,
        "request",
        keys[i % keys.length] as string,
        user,
        "GET",
        "/api/v1/whoami",
        200,
        0.1 + i / 1000,
        "127.0.0.1",
        "bench/1.0",
        // the ids the service gives requests that bring none
        crypto.randomUUID(),
        null,
      ],
    );
  const write = async (rows: AuditTuple[]) => {
    if (mode === "json") return insertAuditRows(database.db, rows);
    const columns =
      "at, organization_id, kind, api_key_id, user_id, method, route, status, duration_ms, ip, user_agent, request_id, detail";
    const stream = await raw.unsafe(`copy audit_log (${columns}) from stdin`).writable();
    await new Promise<void>((resolve, reject) => {
      stream.on("error", reject);
      stream.end(copyText(rows), () => resolve());
    });
  };
  for (let k = 0; k < 5; k++) await write(batch()); // warm: plans, caches, the JIT
  const batches = Array.from({ length: BATCHES }, () => batch());
  const pids = (
    await admin<{ pid: number }[]>`
    select pid from pg_stat_activity where datname = ${name}`
  ).map((row) => row.pid);
  const backend = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const [postgresBefore, clientBefore] = [backend(), process.cpuUsage()];
  for (const rows of batches) await write(rows);
  const client = process.cpuUsage(clientBefore);
  const perRow = (ms: number) => ((ms * 1000) / (BATCHES * ROWS)).toFixed(2);
  console.log(
    `${mode}, indexes ${indexes}, ${orgCount} organization(s), ${keyCount} key(s), batches of ${ROWS}: Postgres ${perRow(backend() - postgresBefore)} µs/row, this process ${perRow((client.user + client.system) / 1000)} µs/row`,
  );
  await raw.end();
  await database.close();
} finally {
  await dropDatabase();
}
