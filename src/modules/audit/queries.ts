/**
 * Reads of the usage and audit trail (`audit_log`, written by src/auth/audit-trail.ts), always
 * within one organization, newest first on (at, id) with a keyset cursor: the first page and
 * the thousandth cost the same.
 */
import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { HOUR_MS } from "../../db/queries/audit-log.ts";
import { type AuditRow, auditLog } from "../../db/schema/audit-log.ts";
import { apiKeyUsage } from "../../db/schema/index.ts";

export type { AuditRow };

/** A position in the newest-first order: the last row of the page before. */
export interface AuditCursor {
  at: Date;
  id: number;
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

function conditions(organizationId: string, filter: AuditFilter): SQL[] {
  const where: SQL[] = [eq(auditLog.organizationId, organizationId)];
  if (filter.keyId) where.push(eq(auditLog.apiKeyId, filter.keyId));
  if (filter.userId) where.push(eq(auditLog.userId, filter.userId));
  if (filter.route) where.push(eq(auditLog.route, filter.route));
  if (filter.ip) where.push(eq(auditLog.ip, filter.ip));
  if (filter.statusClass) {
    // literal bounds (a validated 1..5), so that 4xx and 5xx match the partial index of
    // errors (drizzle/0018), which a parameter cannot prove
    const low = sql.raw(String(filter.statusClass * 100));
    const high = sql.raw(String(filter.statusClass * 100 + 100));
    where.push(sql`${auditLog.status} >= ${low} and ${auditLog.status} < ${high}`);
  }
  if (filter.from) where.push(gte(auditLog.at, filter.from));
  if (filter.to) where.push(lt(auditLog.at, filter.to));
  return where;
}

/**
 * Rows past the cursor in the keyset order: a row comparison, which the index (at, id) answers
 * as its own range (an OR of two conditions would be a filter, read from the first row on every
 * page), plus the same bound on `at` alone so that the planner skips whole day partitions.
 */
function after(cursor: AuditCursor, direction: "<" | ">"): SQL[] {
  const at = sql`${cursor.at.toISOString()}::timestamptz`;
  const op = sql.raw(direction);
  return [
    sql`(${auditLog.at}, ${auditLog.id}) ${op} (${at}, ${cursor.id}::bigint)`,
    sql`${auditLog.at} ${sql.raw(direction === "<" ? "<=" : ">=")} ${at}`,
  ];
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
 * One page, newest first, after `cursor` (the last row of the page before). `now` places the
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
): Promise<AuditRow[]> {
  const where = conditions(organizationId, filter);
  if (cursor) where.push(...after(cursor, "<"));
  const newest = Math.min(
    cursor?.at.getTime() ?? now.getTime(),
    filter.to?.getTime() ?? Number.POSITIVE_INFINITY,
  );
  const newestDay = newest - (((newest % DAY_MS) + DAY_MS) % DAY_MS);
  const rows: AuditRow[] = [];
  let upper: Date | undefined;
  for (const days of [...WINDOW_DAYS, undefined]) {
    let lower = days === undefined ? undefined : new Date(newestDay - days * DAY_MS);
    const last = lower === undefined || (filter.from !== undefined && lower <= filter.from);
    if (last) lower = undefined; // the filter's own `from` bounds the last step
    const window = [...where];
    if (lower) window.push(gte(auditLog.at, lower));
    if (upper) window.push(lt(auditLog.at, upper));
    rows.push(
      ...(await db
        .select()
        .from(auditLog)
        .where(and(...window))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(limit - rows.length)),
    );
    if (rows.length >= limit || last) break;
    upper = lower;
  }
  return rows;
}

/** An export's next rows, oldest first, in [from, to) after `cursor`. */
export async function exportAuditBatch(
  db: Executor,
  organizationId: string,
  range: { from: Date; to: Date },
  cursor: AuditCursor | undefined,
  limit: number,
): Promise<AuditRow[]> {
  const where = conditions(organizationId, range);
  if (cursor) where.push(...after(cursor, ">"));
  return db
    .select()
    .from(auditLog)
    .where(and(...where))
    .orderBy(asc(auditLog.at), asc(auditLog.id))
    .limit(limit);
}

export interface KeyUsageRows {
  last: { at: Date; ip: string | null } | undefined;
  lastDay: number;
  /** requests per UTC day since `since`, by the day's midnight (ms) */
  daily: Map<number, number>;
}

/**
 * One key's requests: the latest, the count since `dayAgo`, and daily counts since `since` (a
 * midnight), from its counts per hour (api_key_usage, written with the rows); only the part of
 * the 24 h before the first whole hour is counted in the log itself (the key's index, at most
 * an hour of its rows).
 */
export async function keyUsage(
  db: Executor,
  organizationId: string,
  apiKeyId: string,
  since: Date,
  dayAgo: Date,
): Promise<KeyUsageRows> {
  const ofKey = and(
    eq(apiKeyUsage.organizationId, organizationId),
    eq(apiKeyUsage.apiKeyId, apiKeyId),
  );
  const [newest] = await db
    .select({ at: apiKeyUsage.lastAt, ip: apiKeyUsage.lastIp })
    .from(apiKeyUsage)
    .where(ofKey)
    .orderBy(desc(apiKeyUsage.hour))
    .limit(1);
  const wholeHours = new Date(Math.ceil(dayAgo.getTime() / HOUR_MS) * HOUR_MS);
  const day = sql<string>`(extract(epoch from date_trunc('day', ${apiKeyUsage.hour}, 'UTC')) * 1000)::bigint`;
  const rows = await db
    .select({
      day,
      count: sql<number>`sum(${apiKeyUsage.requests})::int`,
      lastDay: sql<number>`(coalesce(sum(${apiKeyUsage.requests}) filter (where ${apiKeyUsage.hour} >= ${wholeHours.toISOString()}::timestamptz), 0))::int`,
    })
    .from(apiKeyUsage)
    .where(and(ofKey, gte(apiKeyUsage.hour, since)))
    .groupBy(day);
  const daily = new Map<number, number>();
  let lastDay = 0;
  for (const row of rows) {
    daily.set(Number(row.day), Number(row.count));
    lastDay += Number(row.lastDay);
  }
  if (wholeHours > dayAgo) {
    const [partial] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.organizationId, organizationId),
          eq(auditLog.apiKeyId, apiKeyId),
          eq(auditLog.kind, "request"),
          gte(auditLog.at, dayAgo),
          lt(auditLog.at, wholeHours),
        ),
      );
    lastDay += Number(partial?.count ?? 0);
  }
  return { last: newest, lastDay, daily };
}
