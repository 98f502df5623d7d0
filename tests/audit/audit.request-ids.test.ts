import { expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { FOLD_SLOT_MS } from "../../src/db/queries/audit-fold.ts";
import type { AuditTuple } from "../../src/db/queries/audit-log.ts";
import { ensureDayPartitions, rowsOf } from "../../src/db/queries/audit-partitions.ts";
import { foldRequests, writtenJson } from "../../src/db/queries/audit-rows.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { auditor, graphqlRecorded, readLog, sendRecorded } from "./helpers.ts";

/**
 * A folded row's request ids (drizzle/0025, docs/decisions.md §34): a row whose ids are all
 * the service's own (lowercase canonical UUIDs) keeps them as 16 bytes each, any other row as
 * text[]; every read answers each request's id exactly as it was, in order.
 */

const WHOAMI = "/api/v1/whoami";

function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, { now: clock.now });

  /**
   * A key's whoami requests over three seconds, oldest first, with the id each was recorded
   * under: in the first, clients' own X-Request-Ids between generated ones; in the second,
   * generated ones only; in the third, one request alone. Two pairs share a millisecond.
   */
  async function mixedSeconds() {
    const reader = await auditor(make);
    // from a whole second: the requests below stay inside the fold slots they are sent in
    clock.advance(FOLD_SLOT_MS - (app.services.now().getTime() % FOLD_SLOT_MS));
    const start = app.services.now().getTime();
    const sent: string[] = [];
    const request = async (own?: string) => {
      const headers: Record<string, string> = own === undefined ? {} : { "x-request-id": own };
      const response = await sendRecorded(app, WHOAMI, { key: reader.key, headers });
      expect(response.status).toBe(200);
      const id = response.headers.get("x-request-id") as string;
      if (own !== undefined) expect(id).toBe(own);
      sent.push(id);
    };
    clock.advance(100);
    const clients = [
      "client-7",
      crypto.randomUUID().toUpperCase(),
      crypto.randomUUID(), // a client's own, as the service would make it
      "a_b.c:d-e",
      "NULL",
      "x",
    ];
    for (let i = 0; i < 12; i++) {
      await request(i % 2 === 1 ? clients[(i - 1) / 2] : undefined);
      if (i !== 8) clock.advance(7); // requests 8 and 9 at the same millisecond
    }
    clock.advance(FOLD_SLOT_MS - 100 - 77 + 50); // the next second
    for (let i = 0; i < 8; i++) {
      await request();
      if (i !== 3) clock.advance(11);
    }
    clock.advance(FOLD_SLOT_MS);
    await request();
    await app.services.auditTrail.flush();
    return { reader, start, sent };
  }

  test("the service's ids are stored as bytes, a second with any other id as text; each row one way", async () => {
    const { reader, start, sent } = await mixedSeconds();
    const rows = rowsOf<{
      at: number;
      requests: number;
      requestId: string | null;
      ids: string[] | null;
      bytes: string | null;
    }>(
      await app.services.database.db.execute(sql`
        select (extract(epoch from at) * 1000)::float8 - ${start} as at, requests,
          request_id as "requestId", array_to_json(request_ids) as ids,
          encode(request_id_bytes, 'hex') as bytes
        from audit_log where organization_id = ${reader.organizationId} and route = ${WHOAMI}
        order by at`),
    );
    expect(rows.map((r) => [Number(r.at), r.requests])).toEqual([
      [100, 12],
      [1_050, 8],
      [2_050 + 77, 1],
    ]);
    const [mixed, generated, alone] = rows;
    expect([mixed?.ids, mixed?.bytes, mixed?.requestId]).toEqual([sent.slice(0, 12), null, null]);
    expect([generated?.ids, generated?.bytes, generated?.requestId]).toEqual([
      null,
      sent.slice(12, 20).join("").replaceAll("-", ""),
      null,
    ]);
    expect([alone?.ids, alone?.bytes, alone?.requestId]).toEqual([null, null, sent[20]]);
  });

  test("REST and GraphQL pages and the NDJSON export answer every id once, in order", async () => {
    const { reader, start, sent } = await mixedSeconds();
    const newestFirst = [...sent].reverse();
    for (const limit of [1, 5, 200]) {
      const seen: string[] = [];
      let after = "";
      for (let page = 0; page < 30; page++) {
        const query = `?route=${WHOAMI}&limit=${limit}${after ? `&after=${after}` : ""}`;
        const { response, json } = await readLog(app, reader.key, query);
        expect(response.status).toBe(200);
        seen.push(...json.data.map((e: { requestId: string }) => e.requestId));
        if (!json.nextCursor) break;
        after = json.nextCursor;
      }
      expect(seen, `REST pages of ${limit}`).toEqual(newestFirst);
    }

    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const { json } = await graphqlRecorded(
        app,
        reader.key,
        `query($f: AuditLogFilter, $after: String) {
          auditLog(filter: $f, after: $after, limit: 4) { data { requestId route } nextCursor }
        }`,
        { f: { route: WHOAMI, keyId: reader.apiKey.id }, after },
      );
      expect(json.errors).toBeUndefined();
      seen.push(...json.data.auditLog.data.map((e: { requestId: string }) => e.requestId));
      after = json.data.auditLog.nextCursor;
      if (!after) break;
    }
    expect(seen, "GraphQL pages of 4").toEqual(newestFirst);

    const range = `from=${new Date(start).toISOString()}&to=${new Date(start + 5_000).toISOString()}`;
    const response = await send(app, `/api/v1/audit-log/export?${range}`, { key: reader.key });
    expect(response.status).toBe(200);
    const lines = (await response.text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((line) => line.route === WHOAMI);
    expect(lines.map((l) => l.requestId)).toEqual(sent);
    expect(new Set(sent).size).toBe(sent.length);
  });

  test("a row written before drizzle/0025 (the service's ids as text[]) reads as it did", async () => {
    const reader = await auditor(make);
    const { db } = app.services.database;
    const at = app.services.now().getTime() - 60_000;
    await ensureDayPartitions(db, [at]);
    const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
    await db.execute(sql`
      insert into audit_log (at, organization_id, kind, api_key_id, user_id, method, route,
        status, ip, user_agent, requests, offsets, durations, request_ids)
      values (${new Date(at).toISOString()}::timestamptz, ${reader.organizationId}, 'request',
        ${reader.apiKey.id}, ${reader.user.id}, 'GET', ${WHOAMI}, 200, '192.0.2.5', 'old/1.0',
        5, '{0,1,2,3,4}', '{1,1,1,1,1}', ${`{${ids.join(",")}}`}::text[])`);
    const { json } = await readLog(app, reader.key, `?route=${WHOAMI}`);
    expect(json.data.map((e: { requestId: string }) => e.requestId)).toEqual([...ids].reverse());
  });
}

describeEachDriver("audit trail: request ids of folded rows", suite);

const BASE = 1_800_000_000_000;
const request = (at: number, requestId: string | null, status = 200): AuditTuple => [
  BASE + at,
  "o",
  "request",
  "k",
  "u",
  "GET",
  WHOAMI,
  status,
  1,
  "192.0.2.1",
  null,
  requestId,
  null,
];

/** the ids' 16 bytes each, in order, in base64 (what the INSERT decodes) */
const bytesOf = (ids: string[]) =>
  Buffer.from(ids.join("").replaceAll("-", ""), "hex").toString("base64");

test("a fold of the service's own ids sends their bytes in base64, in order", () => {
  const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
  const [row, ...rest] = foldRequests(ids.map((id, i) => request(i, id)));
  expect(rest).toEqual([]);
  expect(row?.slice(13)).toEqual([5, "{0,1,2,3,4}", "{1,1,1,1,1}", null, bytesOf(ids)]);
  expect(row?.[11]).toBeNull();
});

test("a fold with any other id keeps every id of the row as text, in order", () => {
  const uuid = () => crypto.randomUUID();
  const others: [string, string | null][] = [
    ["a client's own id", "client-7"],
    ["an upper-case UUID", uuid().toUpperCase()],
    ["none", null],
    ["a UUID without hyphens", uuid().replaceAll("-", "")],
    ["a UUID with a trailing character", `${uuid()}0`],
    ["a UUID with a letter past f", `g${uuid().slice(1)}`],
    ["a UUID's length with a hyphen moved", `${uuid().slice(0, 7)}-0${uuid().slice(9)}`],
    ["a UUID with a non-ASCII digit", `${uuid().slice(0, 35)}\u0660`],
    ["the text NULL", "NULL"],
  ];
  for (const [what, other] of others) {
    const ids = [uuid(), uuid(), other, uuid()];
    const [row, ...rest] = foldRequests(ids.map((id, i) => request(i, id)));
    expect(rest, what).toEqual([]);
    expect(row, what).toHaveLength(17);
    const bare = other !== null && other !== "NULL" && /^[A-Za-z0-9._:-]+$/.test(other);
    const element = other === null ? "NULL" : bare ? other : `"${other}"`;
    expect(row?.[16], what).toBe(`{${ids[0]},${ids[1]},${element},${ids[3]}}`);
  }
});

test("each fold of a batch chooses for itself; a request alone keeps its id in its own column", () => {
  const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  const upper = crypto.randomUUID().toUpperCase();
  const rows = foldRequests([
    request(0, a),
    request(1, "client-1", 404),
    request(2, b),
    request(3, c, 404),
    request(4, upper, 500),
  ]);
  expect(rows.map((r) => [r[7], r[13] ?? 1, r[16] ?? null, r[17] ?? null, r[11]])).toEqual([
    [200, 2, null, bytesOf([a, b]), null],
    [404, 2, `{client-1,${c}}`, null, null],
    [500, 1, null, null, upper],
  ]);
  expect(rows[2]).toHaveLength(13);
});

test("the statement's JSON is the written rows' own, whatever the ids, durations and agents", () => {
  const uuid = () => crypto.randomUUID();
  const agent = 'curl "8.0" \\ é\n\u0000';
  const entries: AuditTuple[] = [
    ...Array.from({ length: 40 }, (_, i) => request(i, uuid())),
    ...Array.from({ length: 5 }, (_, i) => request(50 + i, i === 2 ? 'say "hi"' : uuid(), 404)),
    request(60, uuid(), 500),
    [BASE + 70, "o", "api_key.rotated", "k", "u", null, null, null, null, null, agent, null, {}],
  ];
  entries[3] = [...(entries[3] as AuditTuple)];
  (entries[3] as AuditTuple)[8] = null;
  (entries[4] as AuditTuple)[8] = 12.345;
  for (const tuple of entries.slice(0, 46)) tuple[10] = agent;
  const json = writtenJson(entries);
  expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(foldRequests(entries))));
  expect(JSON.parse(json).map((row: unknown[]) => row[13] ?? 1)).toEqual([40, 5, 1, 1]);
});
