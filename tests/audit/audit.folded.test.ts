import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { FOLD_SLOT_MS } from "../../src/db/queries/audit-fold.ts";
import { type AuditTuple, insertAuditRows } from "../../src/db/queries/audit-log.ts";
import { DAY_MS, ensureDayPartitions, rowsOf } from "../../src/db/queries/audit-partitions.ts";
import { foldRequests } from "../../src/db/queries/audit-rows.ts";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { keyUsage } from "../../src/modules/audit/usage-queries.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { auditor, readLog, requestTuple, storedEntries } from "./helpers.ts";

/**
 * Rows that hold several requests (drizzle/0023, docs/decisions.md §30): the recorder folds a
 * second's requests that differ only in time, duration and request id; every read answers one
 * entry per request, in exact time order across rows, each once whatever the page size.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  /** Interleaved requests of two routes, a 503 and an event, over three fold slots. */
  async function interleaved() {
    const reader = await auditor(make);
    const { db } = app.services.database;
    const now = app.services.now().getTime();
    // 20 minutes ago, 300 ms into a slot: the requests run over the next two slots
    const start = now - 20 * 60_000 - (now % FOLD_SLOT_MS) + 300;
    await ensureDayPartitions(db, [start, start + 3 * FOLD_SLOT_MS]);
    const tuple = (at: number, route: string, status: number, requestId: string | null) =>
      [
        at,
        reader.organizationId,
        "request",
        reader.apiKey.id,
        reader.user.id,
        "GET",
        route,
        status,
        (at - start) / 100,
        "192.0.2.7",
        "folded/1.0",
        requestId,
        null,
      ] as AuditTuple;
    const tuples: AuditTuple[] = [];
    for (let i = 0; i < 60; i++) {
      const at = start + i * 30;
      const route = i % 2 === 0 ? "/api/v1/tickets" : "/api/v1/whoami";
      const status = i === 31 ? 503 : 200;
      // ids that an array literal would misread unless quoted, and a request without one
      const id = i === 7 ? "NULL" : i === 8 ? null : i === 9 ? 'odd "id", \\ too' : `req-${i}`;
      tuples.push(tuple(at, route, status, id));
    }
    tuples.splice(20, 0, [
      start + 595,
      reader.organizationId,
      "api_key.revoked",
      reader.apiKey.id,
      reader.user.id,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      { name: "old key" },
    ]);
    await insertAuditRows(db, tuples);
    const requests = tuples.filter((t) => t[2] === "request");
    return { reader, db, start, tuples, requests };
  }

  const idOf = (t: AuditTuple) => t[11] ?? `event@${t[0]}`;
  const newestFirst = (ts: AuditTuple[]) => [...ts].sort((a, b) => b[0] - a[0]).map(idOf);

  test("a second's alike requests are one row; read back, each is an entry with its own time, duration and id", async () => {
    const { reader, db, tuples, requests } = await interleaved();
    const rows = await db.select().from(auditLog);
    const ours = rows.filter((r) => r.organizationId === reader.organizationId);
    // 60 requests: two routes over three slots, the 503 alone; the key's creation and the event
    expect(ours.length).toBeLessThan(12);
    expect(ours.some((r) => r.requests > 10)).toBe(true);
    const entries = (await storedEntries(db, reader.organizationId)).filter(
      (e) => e.kind !== "api_key.created",
    );
    expect(
      entries.map((e) => [e.at.getTime(), e.route, e.status, e.durationMs, e.requestId]),
    ).toEqual([...tuples].sort((a, b) => a[0] - b[0]).map((t) => [t[0], t[6], t[7], t[8], t[11]]));
    expect(requests).toHaveLength(60);
  });

  test("pages of any size walk the folded rows newest first, every entry once", async () => {
    const { reader, tuples } = await interleaved();
    const expected = newestFirst(tuples);
    for (const limit of [1, 3, 7, 200]) {
      const seen: string[] = [];
      const times: number[] = [];
      let after = "";
      for (let page = 0; page < 80; page++) {
        const query = `?limit=${limit}${after ? `&after=${after}` : ""}`;
        const { response, json } = await readLog(app, reader.key, query);
        expect(response.status).toBe(200);
        for (const entry of json.data) {
          if (entry.kind === "api_key.created" || entry.route === "/api/v1/audit-log") continue;
          seen.push(entry.requestId ?? `event@${Date.parse(entry.at)}`);
          times.push(Date.parse(entry.at));
        }
        if (!json.nextCursor) break;
        after = json.nextCursor;
      }
      expect(seen, `pages of ${limit}`).toEqual(expected);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    }
  });

  test("filters: a route, a status class and a time range cut inside a row", async () => {
    const { reader, start, tuples, requests } = await interleaved();
    const ids = async (query: string) => {
      const { response, json } = await readLog(app, reader.key, `?limit=200&${query}`);
      expect(response.status).toBe(200);
      return json.data.map(
        (e: { requestId: string | null; at: string }) => e.requestId ?? `event@${Date.parse(e.at)}`,
      );
    };
    const whoami = requests.filter((t) => t[6] === "/api/v1/whoami");
    expect(await ids("route=/api/v1/whoami")).toEqual(newestFirst(whoami));
    expect(await ids("statusClass=5xx")).toEqual(["req-31"]);
    const from = new Date(start + 150).toISOString();
    const to = new Date(start + 930).toISOString(); // excluded: a request falls on it (i = 31)
    const inRange = tuples.filter((t) => t[0] >= start + 150 && t[0] < start + 930);
    expect(await ids(`from=${from}&to=${to}`)).toEqual(newestFirst(inRange));
  });

  test("the export lists every entry of the range once, oldest first, across folded rows", async () => {
    const { reader, start, tuples } = await interleaved();
    const range = `from=${new Date(start + 40).toISOString()}&to=${new Date(start + 1_700).toISOString()}`;
    const response = await send(app, `/api/v1/audit-log/export?${range}`, { key: reader.key });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const inRange = tuples.filter((t) => t[0] >= start + 40 && t[0] < start + 1_700);
    expect(lines.map((l) => l.requestId ?? `event@${Date.parse(l.at)}`)).toEqual(
      [...inRange].sort((a, b) => a[0] - b[0]).map(idOf),
    );
    expect(new Set(lines.map((l) => l.id)).size).toBe(lines.length);
  });

  test("a key's last 24 hours count the requests of a row that straddles the day's start", async () => {
    const { reader, db, start, requests } = await interleaved();
    const dayAgo = new Date(start + 455); // inside the first slot's rows
    const usage = await keyUsage(
      db,
      reader.organizationId,
      reader.apiKey.id,
      new Date(start - 86_400_000),
      dayAgo,
    );
    expect(usage.lastDay).toBe(requests.filter((t) => t[0] >= dayAgo.getTime()).length);
  });

  test("a folded row's arrays are stored uncompressed, in day partitions old and new", async () => {
    const reader = await auditor(make);
    const { db } = app.services.database;
    // a day no partition exists for yet: created now, it must take the parent's storage
    const at = app.services.now().getTime() + 3 * DAY_MS;
    await ensureDayPartitions(db, [at]);
    const tuples = Array.from(
      { length: 1_000 },
      (_, i): AuditTuple => [
        at - (at % FOLD_SLOT_MS) + (i % FOLD_SLOT_MS),
        reader.organizationId,
        "request",
        reader.apiKey.id,
        reader.user.id,
        "GET",
        "/api/v1/whoami",
        200,
        0.25,
        "192.0.2.9",
        "storage/1.0",
        crypto.randomUUID(),
        null,
      ],
    );
    await insertAuditRows(db, tuples);
    // the service's own ids: stored as bytes (drizzle/0025), out of line and uncompressed
    const stored = rowsOf<{ requests: number; compression: string | null; size: number }>(
      await db.execute(sql`
        select requests, pg_column_compression(request_id_bytes) as compression,
          pg_column_size(request_id_bytes) as size
        from audit_log
        where organization_id = ${reader.organizationId} and user_agent = 'storage/1.0'`),
    );
    expect(stored.map((r) => [r.requests, r.compression, Number(r.size)])).toEqual([
      [1_000, null, 16_000],
    ]);
    const storage = rowsOf<{ partition: string; storage: string }>(
      await db.execute(sql`
        select c.relname as partition, string_agg(a.attstorage::text, '' order by a.attname)
          as storage
        from pg_inherits i
        join pg_class c on c.oid = i.inhrelid
        join pg_attribute a on a.attrelid = c.oid
        where i.inhparent = 'audit_log'::regclass
          and a.attname in ('offsets', 'durations', 'request_ids', 'request_id_bytes')
        group by c.relname`),
    );
    expect(storage.length).toBeGreaterThanOrEqual(2);
    expect(storage.filter((p) => p.storage !== "eeee")).toEqual([]);
  });
}

describeEachDriver("audit trail: rows of several requests", suite);

test("folding keeps apart what differs, and never mixes slots or overfills a row", () => {
  const base = 1_800_000_000_000;
  const request = (at: number, status: number, ip: string) => requestTuple(at, { status, ip });
  const rows = foldRequests([
    request(base, 200, "192.0.2.1"),
    request(base + 1, 200, "192.0.2.2"),
    request(base + 2, 200, "192.0.2.1"),
    request(base + 3, 401, "192.0.2.1"),
    request(base + FOLD_SLOT_MS, 200, "192.0.2.1"),
  ]);
  expect(rows.map((r) => [r[0], r[7], r[9], r[13] ?? 1, r[14] ?? null])).toEqual([
    [base, 200, "192.0.2.1", 2, "{0,2}"],
    [base + 1, 200, "192.0.2.2", 1, null],
    [base + 3, 401, "192.0.2.1", 1, null],
    [base + FOLD_SLOT_MS, 200, "192.0.2.1", 1, null],
  ]);
  const many = foldRequests(
    Array.from({ length: 2_500 }, (_, i) => request(base + (i % 100), 200, "192.0.2.1")),
  );
  expect(many.map((r) => r[13])).toEqual([1_000, 1_000, 500]);
});

test("a row's durations are written as their own text, whatever their size or repetition", () => {
  const base = 1_800_000_000_000;
  // hundredths (as the HTTP layer rounds them), repeats, a second and more, finer values, none
  const durations = [0.29, 0.01, 0.29, 0, 12.34, 999.99, 1000, 4321.5, 0.125, 1e-7, null, 0.29];
  const rows = foldRequests(
    durations.map((duration, i) => {
      const tuple = requestTuple(base + i, {});
      tuple[8] = duration;
      return tuple;
    }),
  );
  expect(rows).toHaveLength(1);
  const written = durations.map((d) => (d === null ? "NULL" : String(d)));
  expect(rows[0]?.[15]).toBe(`{${written.join(",")}}`);
  expect(rows[0]?.[15]).toBe("{0.29,0.01,0.29,0,12.34,999.99,1000,4321.5,0.125,1e-7,NULL,0.29}");
});
