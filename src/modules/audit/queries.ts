/**
 * Reads of the usage and audit trail (`audit_log`, written by src/auth/audit-trail.ts), always
 * within one organization, newest first with a keyset cursor: the first page and the thousandth
 * cost the same. A row holds one event or one or more requests (drizzle/0023: a second's
 * requests that differ only in time, duration and request id); the reads answer entries, one
 * per event or request, each with its own time, ordered by (time, row id, position in the row).
 */
import { and, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { FOLD_SLOT_MS, slotOf, uuidOfHex } from "../../db/queries/audit-fold.ts";
import { rowsOf } from "../../db/queries/day-partitions.ts";

/** One entry of the log: an event, or one request of a row. */
export interface AuditEntryRow {
  /** the row's id, and for a request of a row of several, its position: `1234.7` */
  id: string;
  rowId: number;
  /** the entry's position in its row, from 1 */
  ord: number;
  at: Date;
  kind: string;
  apiKeyId: string | null;
  userId: string | null;
  method: string | null;
  route: string | null;
  status: number | null;
  durationMs: number | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  detail: Record<string, unknown> | null;
}

/** A position in the log's order: the last entry of the page before. */
export interface AuditCursor {
  at: Date;
  id: number;
  ord: number;
}

export interface AuditFilter {
  keyId?: string;
  userId?: string;
  route?: string;
  /** 2 for 2xx … 5 for 5xx */
  statusClass?: number;
  ip?: string;
  from?: Date;
  to?: Date;
}

export const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * Conditions on rows (alias `r`): the organization and the filters a row's requests share.
 * `from` and `to` bound rows by the slot their entries lie in; the entries are checked too.
 */
function rowConditions(organizationId: string, filter: AuditFilter): SQL[] {
  const where: SQL[] = [sql`r.organization_id = ${organizationId}`];
  if (filter.keyId) where.push(sql`r.api_key_id = ${filter.keyId}`);
  if (filter.userId) where.push(sql`r.user_id = ${filter.userId}`);
  if (filter.route) where.push(sql`r.route = ${filter.route}`);
  if (filter.ip) where.push(sql`r.ip = ${filter.ip}`);
  if (filter.statusClass) {
    // literal bounds (a validated 1..5), so that 4xx and 5xx match the partial index of
    // errors (drizzle/0018), which a parameter cannot prove
    const low = sql.raw(String(filter.statusClass * 100));
    const high = sql.raw(String(filter.statusClass * 100 + 100));
    where.push(sql`r.status >= ${low} and r.status < ${high}`);
  }
  if (filter.from) where.push(sql`r.at >= ${instant(slotOf(filter.from.getTime()))}`);
  if (filter.to) where.push(sql`r.at < ${instant(filter.to.getTime() + FOLD_SLOT_MS)}`);
  return where;
}

/** An entry's own time: its row's, plus its offset. */
const ENTRY_AT = sql.raw(`(r.at + e.off * interval '1 millisecond')`);

function entryConditions(filter: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.from) where.push(sql`${ENTRY_AT} >= ${instant(filter.from.getTime())}`);
  if (filter.to) where.push(sql`${ENTRY_AT} < ${instant(filter.to.getTime())}`);
  return where;
}

/** Entries past `cursor` in the order `direction` walks. */
function pastCursor(cursor: AuditCursor, direction: "<" | ">"): SQL {
  return sql`(${ENTRY_AT}, r.id, e.ord) ${sql.raw(direction)} (${instant(cursor.at.getTime())}, ${cursor.id}::bigint, ${cursor.ord}::bigint)`;
}

/**
 * Every entry of the rows `where` selects, in `order`, at most `limit`. A row's request ids are
 * its `request_ids` (text[]) or, when all were the service's own UUIDs, `request_id_bytes`
 * (16 bytes an id, drizzle/0025). Those bytes are taken out of TOAST once a row (`b`: `|| ''`
 * makes an in-memory copy, `offset 0` keeps it from being inlined into every entry; a
 * substring of the stored value would fetch its chunk again for each entry, about 3 µs), and
 * each entry's 16 bytes leave as hexadecimal, made a UUID's text here.
 */
async function entries(db: Executor, where: SQL[], order: "asc" | "desc", limit: number) {
  const dir = sql.raw(order);
  const result = await db.execute(sql`
    select r.id::text as "rowId", e.ord::integer as ord, r.requests,
      (extract(epoch from ${ENTRY_AT}) * 1000)::float8 as "atMs", r.kind,
      r.api_key_id as "apiKeyId", r.user_id as "userId", r.method, r.route, r.status,
      e.duration_ms as "durationMs", r.ip, r.user_agent as "userAgent",
      e.request_id as "requestId",
      encode(substring(e.id_bytes from e.ord::integer * 16 - 15 for 16), 'hex') as "requestHex",
      r.detail
    from audit_log r cross join lateral (
      select e.*, b.id_bytes
      from (select r.request_id_bytes || ''::bytea as id_bytes offset 0) b,
        unnest(coalesce(r.offsets, '{0}'::integer[]), coalesce(r.durations, array[r.duration_ms]),
          coalesce(r.request_ids, array[r.request_id]))
          with ordinality as e(off, duration_ms, request_id, ord)
    ) e
    where ${and(...where)}
    order by ${ENTRY_AT} ${dir}, r.id ${dir}, e.ord ${dir}
    limit ${limit}`);
  type Raw = Omit<AuditEntryRow, "id" | "rowId" | "at"> & {
    rowId: string;
    requests: number;
    atMs: number;
    requestHex: string | null;
  };
  return rowsOf<Raw>(result).map(
    ({ rowId, requests, atMs, requestHex, ...entry }): AuditEntryRow => {
      const id = Number(rowId);
      return {
        ...entry,
        id: requests > 1 ? `${rowId}.${entry.ord}` : rowId,
        rowId: id,
        at: new Date(atMs),
        status: entry.status === null ? null : Number(entry.status),
        durationMs: entry.durationMs === null ? null : Number(entry.durationMs),
        requestId: requestHex === null ? entry.requestId : uuidOfHex(requestHex),
      };
    },
  );
}

/**
 * The slot bound of the `limit` entries nearest the cursor in the order walked, counted on the
 * rows alone (each row's `requests`, at most `limit` rows of an index walk): the rows beyond
 * the returned slot cannot hold any of the page's entries, as every entry of a row lies in its
 * row's slot. Undefined when the rows run out first.
 */
async function boundSlot(
  db: Executor,
  where: SQL[],
  order: "asc" | "desc",
  limit: number,
): Promise<number | undefined> {
  const dir = sql.raw(order);
  const result = await db.execute(sql`
    select (extract(epoch from s.at) * 1000)::float8 as "atMs" from (
      select r.at, sum(r.requests) over (order by r.at ${dir}, r.id ${dir}) as reached
      from audit_log r where ${and(...where)}
      order by r.at ${dir}, r.id ${dir} limit ${limit}
    ) s where s.reached >= ${limit} order by s.reached limit 1`);
  const [row] = rowsOf<{ atMs: number }>(result);
  return row ? slotOf(Number(row.atMs)) : undefined;
}

/**
 * How far back each step of a page reaches, in days before the newest day it can hold: a
 * query plans every day partition its bounds do not exclude (30 to 400 of them, each with its
 * indexes), which costs more than the index walk of a first page. So a page first asks the
 * last two days, then the week, then the rest; an active organization's page is one small
 * query, and a rare filter value pays two more round trips, never a plan of every partition
 * more than once.
 */
const WINDOW_DAYS = [1, 7];
const DAY_MS = 86_400_000;

/**
 * One page, newest first, after `cursor` (the last entry of the page before). `now` places the
 * first window when neither the cursor nor `to` bounds the page; a row newer than it (a clock
 * ahead) is still found, as every window is open towards the newer end of the one before.
 */
export async function listAuditLog(
  db: Executor,
  organizationId: string,
  filter: AuditFilter,
  cursor: AuditCursor | undefined,
  limit: number,
  now: Date = new Date(),
): Promise<AuditEntryRow[]> {
  const where = rowConditions(organizationId, filter);
  const ofEntries = entryConditions(filter);
  if (cursor) {
    where.push(sql`r.at < ${instant(slotOf(cursor.at.getTime()) + FOLD_SLOT_MS)}`);
    ofEntries.push(pastCursor(cursor, "<"));
  }
  // the rows of the slot of the cursor (or of `to`) may hold entries on either side of it:
  // they are read whole, and only the rows of earlier slots count towards the page's bound
  const edge = Math.min(
    cursor ? slotOf(cursor.at.getTime()) : Number.POSITIVE_INFINITY,
    filter.to ? slotOf(filter.to.getTime()) : Number.POSITIVE_INFINITY,
  );
  const newest = Math.min(
    cursor?.at.getTime() ?? now.getTime(),
    filter.to?.getTime() ?? Number.POSITIVE_INFINITY,
  );
  const newestDay = newest - (((newest % DAY_MS) + DAY_MS) % DAY_MS);
  const found: AuditEntryRow[] = [];
  let upper: number | undefined;
  for (const days of [...WINDOW_DAYS, undefined]) {
    let lower = days === undefined ? undefined : newestDay - days * DAY_MS;
    const last =
      lower === undefined || (filter.from !== undefined && lower <= filter.from.getTime());
    if (last) lower = undefined; // the filter's own `from` bounds the last step
    const window = [...where];
    if (lower !== undefined) window.push(sql`r.at >= ${instant(lower)}`);
    if (upper !== undefined) window.push(sql`r.at < ${instant(upper)}`);
    const wanted = limit - found.length;
    const earlier = Number.isFinite(edge) ? [...window, sql`r.at < ${instant(edge)}`] : window;
    const bound = await boundSlot(db, earlier, "desc", wanted);
    const rows = bound === undefined ? window : [...window, sql`r.at >= ${instant(bound)}`];
    found.push(...(await entries(db, [...rows, ...ofEntries], "desc", wanted)));
    if (found.length >= limit || last) break;
    upper = lower;
  }
  return found;
}

/** An export's next entries, oldest first, in [from, to) after `cursor`. */
export async function exportAuditBatch(
  db: Executor,
  organizationId: string,
  range: { from: Date; to: Date },
  cursor: AuditCursor | undefined,
  limit: number,
): Promise<AuditEntryRow[]> {
  const where = rowConditions(organizationId, range);
  const ofEntries = entryConditions(range);
  if (cursor) {
    // rows of earlier slots hold only entries before the cursor
    where.push(sql`r.at >= ${instant(slotOf(cursor.at.getTime()))}`);
    ofEntries.push(pastCursor(cursor, ">"));
  }
  // the rows of the slot of the cursor (or of `from`) are read whole and not counted
  const edge = Math.max(slotOf(cursor?.at.getTime() ?? 0), slotOf(range.from.getTime()));
  const later = [...where, sql`r.at >= ${instant(edge + FOLD_SLOT_MS)}`];
  const bound = await boundSlot(db, later, "asc", limit);
  const rows =
    bound === undefined ? where : [...where, sql`r.at < ${instant(bound + FOLD_SLOT_MS)}`];
  return entries(db, [...rows, ...ofEntries], "asc", limit);
}
