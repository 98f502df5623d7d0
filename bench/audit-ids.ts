/**
 * `bun run bench/audit-ids.ts [rounds] [requests per variant and round] [rows per batch]
 * [variants…]`: what a folded row's request ids cost to write, stored each way
 * (docs/decisions.md §34, docs/performance.md "A folded row's request ids"). A fresh database
 * at the migrations' schema with the candidates' columns added (all `STORAGE EXTERNAL`, as
 * drizzle/0024's arrays); one key's requests, each with its own `crypto.randomUUID()`, built
 * beforehand in batches and written by the recorder's statement (the rows and the per-key
 * counts) with the ids encoded each way. The variants take turns round by round, so a slow
 * spell of the shared machine falls on all of them; each turn prints the CPU the connection's
 * Postgres backend spent (from /proc, 10 ms ticks) and this process's, per request.
 *
 * text: the text[] literal, cast `::text[]` (before drizzle/0025). uuid: the same literal cast
 * `::uuid[]`. hex: the ids' 16 bytes each as one hexadecimal string, `decode(…, 'hex')` into a
 * bytea (drizzle/0025). joined: the ids joined as they are, their hyphens removed by Postgres
 * (`decode(replace(…))`). base64: the same bytes in base64, `decode(…, 'base64')`. null: no
 * ids at all (the floor).
 */
import { sql } from "drizzle-orm";
import { createDatabase } from "../src/db/client.ts";
import { type AuditTuple, keyUsageOf } from "../src/db/queries/audit-log.ts";
import { ensureDayPartitions } from "../src/db/queries/audit-partitions.ts";
import { apiKeyUsage } from "../src/db/schema/index.ts";
import { benchDatabase, cpuMs } from "./e2e-lib.ts";

const [roundsArg = "3", requestsArg = "100000", batchArg = "2500", ...named] =
  process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const ROWS = Number(batchArg);
const BATCHES = Math.round(Number(requestsArg) / ROWS);
const FOLD_MS = 1_000;
const MAX = 1_000;

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BARE = /^[A-Za-z0-9._:-]+$/;
const textElement = (value: string | null) => {
  if (value === null) return "NULL";
  if (BARE.test(value) && (value.length !== 4 || value.toUpperCase() !== "NULL")) return value;
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
};
const allCanonical = (ids: (string | null)[]) =>
  ids.every((id) => id !== null && CANONICAL.test(id));

interface Variant {
  /** the JSON value of a fold's ids */
  encode: (ids: (string | null)[]) => string | null;
  /** the column it is written to, and the expression reading it from `r->>16` */
  column: string;
  value: string;
}
const VARIANTS: Record<string, Variant> = {
  text: {
    encode: (ids) => `{${ids.map(textElement).join(",")}}`,
    column: "request_ids",
    value: "(r->>16)::text[]",
  },
  uuid: {
    encode: (ids) => (allCanonical(ids) ? `{${ids.join(",")}}` : null),
    column: "request_uuids",
    value: "(r->>16)::uuid[]",
  },
  hex: {
    encode: (ids) => (allCanonical(ids) ? ids.join("").replaceAll("-", "") : null),
    column: "request_id_bytes",
    value: "decode(r->>16, 'hex')",
  },
  joined: {
    encode: (ids) => (allCanonical(ids) ? ids.join("") : null),
    column: "request_id_bytes",
    value: "decode(replace(r->>16, '-', ''), 'hex')",
  },
  base64: {
    encode: (ids) =>
      allCanonical(ids)
        ? Buffer.from(ids.join("").replaceAll("-", ""), "hex").toString("base64")
        : null,
    column: "request_id_bytes",
    value: "decode(r->>16, 'base64')",
  },
  null: { encode: () => null, column: "request_ids", value: "(r->>16)::text[]" },
};
const chosen = named.length > 0 ? named : ["text", "uuid", "hex", "base64"];

/** audit-fold.ts's foldRequests for the bench's rows (one group: all alike), ids encoded. */
function fold(rows: AuditTuple[], encode: Variant["encode"]): unknown[][] {
  const out: unknown[][] = [];
  let first: AuditTuple | undefined;
  let offsets: number[] = [];
  let durations: (number | null)[] = [];
  let ids: (string | null)[] = [];
  const close = () => {
    if (!first) return;
    if (offsets.length === 1) out.push(first);
    else
      out.push([
        ...first.slice(0, 8),
        null,
        first[9],
        first[10],
        null,
        null,
        offsets.length,
        `{${offsets.join(",")}}`,
        `{${durations.map((d) => (d === null ? "NULL" : d)).join(",")}}`,
        encode(ids),
      ]);
  };
  for (const row of rows) {
    if (
      !first ||
      row[0] - (row[0] % FOLD_MS) !== first[0] - (first[0] % FOLD_MS) ||
      offsets.length >= MAX
    ) {
      close();
      [first, offsets, durations, ids] = [row, [], [], []];
    }
    offsets.push(row[0] - first[0]);
    durations.push(row[8]);
    ids.push(row[11]);
  }
  close();
  return out;
}

const { name, url, admin, drop } = await benchDatabase("orgit_ids");
try {
  const database = await createDatabase({ databaseUrl: url, poolSize: 1 });
  const { db } = database;
  // request_id_bytes is the migrations' own since drizzle/0025; request_uuids only the bench's
  await db.execute(sql`alter table audit_log add column request_uuids uuid[]`);
  await db.execute(sql`alter table audit_log alter column request_uuids set storage external`);
  await db.execute(sql`alter table audit_log add column if not exists request_id_bytes bytea`);
  await db.execute(sql`alter table audit_log alter column request_id_bytes set storage external`);
  await ensureDayPartitions(db, [Date.now(), Date.now() + 86_400_000]);
  const organization = crypto.randomUUID();
  const key = crypto.randomUUID();
  const user = crypto.randomUUID();
  const batch = (): AuditTuple[] =>
    Array.from({ length: ROWS }, (_, i) => [
      Date.now(),
      organization,
      "request",
      key,
      user,
      "GET",
      "/api/v1/whoami",
      200,
      0.1 + i / 1000,
      "127.0.0.1",
      "bench/1.0",
      crypto.randomUUID(),
      null,
    ]);
  /** wall time spent folding and serialising (ms), the part of this process's CPU it explains */
  let encoding = 0;
  const encoded = (rows: AuditTuple[], variant: Variant) => {
    const start = performance.now();
    const json = JSON.stringify(fold(rows, variant.encode));
    encoding += performance.now() - start;
    return json;
  };
  const write = async (variant: Variant, rows: AuditTuple[]) => {
    const usage = keyUsageOf(rows);
    await db.execute(sql`
      with counted as (
        insert into ${apiKeyUsage} as u (api_key_id, hour, organization_id, requests, last_at,
          last_ip)
        select (g->>0)::uuid, to_timestamp((g->>2)::double precision / 1000), (g->>1)::uuid,
          (g->>3)::int, to_timestamp((g->>4)::double precision / 1000), g->>5
        from jsonb_array_elements(${JSON.stringify(usage)}::jsonb) as g
        on conflict (api_key_id, hour) do update set
          requests = u.requests + excluded.requests,
          last_at = greatest(u.last_at, excluded.last_at),
          last_ip = case when excluded.last_at >= u.last_at then excluded.last_ip else u.last_ip end
      )
      insert into audit_log (at, organization_id, kind, api_key_id, user_id, method, route,
        status, duration_ms, ip, user_agent, request_id, detail, requests, offsets, durations,
        ${sql.raw(variant.column)})
      select to_timestamp((r->>0)::double precision / 1000), (r->>1)::uuid, r->>2,
        (r->>3)::uuid, (r->>4)::uuid, r->>5, r->>6, (r->>7)::smallint, (r->>8)::real, r->>9,
        r->>10, r->>11, nullif(r->12, 'null'::jsonb), coalesce((r->>13)::integer, 1),
        (r->>14)::integer[], (r->>15)::real[], ${sql.raw(variant.value)}
      from jsonb_array_elements(${encoded(rows, variant)}::jsonb) as r`);
  };
  for (const v of chosen) for (let k = 0; k < 3; k++) await write(VARIANTS[v] as Variant, batch());
  const pids = (
    await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${name}`
  ).map((row) => row.pid);
  const backend = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const perRequest = (ms: number) => (ms * 1000) / (BATCHES * ROWS);
  const totals = new Map<string, { pg: number[]; client: number[] }>();
  for (let round = 1; round <= ROUNDS; round++) {
    // each round starts with the next variant: none is always first after the pause
    for (const v of [
      ...chosen.slice(round % chosen.length),
      ...chosen.slice(0, round % chosen.length),
    ]) {
      const variant = VARIANTS[v] as Variant;
      const batches = Array.from({ length: BATCHES }, batch);
      Bun.gc(true);
      const [pgBefore, clientBefore] = [backend(), process.cpuUsage()];
      encoding = 0;
      for (const rows of batches) await write(variant, rows);
      const client = process.cpuUsage(clientBefore);
      const pg = perRequest(backend() - pgBefore);
      const js = perRequest((client.user + client.system) / 1000);
      const t = totals.get(v) ?? { pg: [], client: [] };
      t.pg.push(pg);
      t.client.push(js);
      totals.set(v, t);
      console.log(
        `round ${round} ${v.padEnd(6)} Postgres ${pg.toFixed(2)} µs/request, this process ${js.toFixed(2)} (folding and JSON ${perRequest(encoding).toFixed(2)}), total ${(pg + js).toFixed(2)}`,
      );
    }
  }
  const sizes = await db.execute(sql`
    select pg_size_pretty(sum(pg_total_relation_size(c.reltoastrelid))) as toast
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'audit_log'::regclass`);
  console.log("toast of the partitions:", JSON.stringify(sizes));
  for (const [v, t] of totals) {
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `${v.padEnd(6)} mean Postgres ${mean(t.pg).toFixed(2)}, process ${mean(t.client).toFixed(2)}, total ${(mean(t.pg) + mean(t.client)).toFixed(2)} µs/request (${t.pg.length} rounds)`,
    );
  }
  await database.close();
} finally {
  await drop();
}
