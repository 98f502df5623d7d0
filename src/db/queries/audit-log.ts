/**
 * The writes of the usage and audit trail (src/auth/audit-trail.ts): batches of rows in one
 * multi-row INSERT, and the batched removal of rows a shorter plan no longer keeps
 * (docs/decisions.md §15).
 */
import { and, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { auditLog } from "../schema/audit-log.ts";
import { apiKeyUsage, memberships, organizations } from "../schema/index.ts";
import { type AuditEntry, type AuditTuple, entryWeight, isFold } from "./audit-fold.ts";
import { writtenJson } from "./audit-rows.ts";

type Plan = typeof organizations.$inferSelect.plan;

export type { AuditEntry, AuditTuple };

/** api_key_usage counts requests per UTC hour of this length */
export const HOUR_MS = 3_600_000;

/**
 * The batch's requests per key and UTC hour, as api_key_usage counts them: `[apiKeyId,
 * organizationId, hour (ms), requests, newest (ms), its client address]`, sorted by key and
 * hour so that instances writing at once lock the same rows in the same order (no deadlock).
 * A folded row's requests lie in one second, so in one hour.
 */
export function keyUsageOf(entries: AuditEntry[]): unknown[][] {
  type Group = [string, string, number, number, number, string | null];
  const groups = new Map<string, Group>();
  let group: Group | undefined;
  for (const entry of entries) {
    const folded = isFold(entry);
    const row = folded ? entry.first : entry;
    const keyId = row[3];
    if (keyId === null || row[2] !== "request" || row[1] === null) continue;
    const hour = row[0] - (row[0] % HOUR_MS);
    const requests = entryWeight(entry);
    const newest = folded ? row[0] + entry.latest : row[0];
    // a batch is mostly runs of one key's requests: the group of the row before, without a
    // string built and looked up per row
    if (group?.[0] !== keyId || group[2] !== hour) group = groups.get(`${keyId}/${hour}`);
    if (!group) {
      group = [keyId, row[1], hour, requests, newest, row[9]];
      groups.set(`${keyId}/${hour}`, group);
    } else {
      group[3] += requests;
      // ties: the later row (the later id, as the log's own order)
      if (newest >= group[4]) {
        group[4] = newest;
        group[5] = row[9];
      }
    }
  }
  return [...groups.values()].sort((a, b) => (a[0] === b[0] ? a[2] - b[2] : a[0] < b[0] ? -1 : 1));
}

/**
 * One statement for the whole batch: its rows (requests folded, ./audit-fold.ts: a row's
 * request ids as a text[] literal, or as their bytes in base64 when all are the service's own
 * UUIDs), and their counts per key and hour added to api_key_usage (the settings screen's
 * usage of a key), together or not at all. The rows go over as one JSON parameter: a thousand
 * rows cost one parameter and one JSON.stringify of arrays rather than 13,000 bound values built
 * by the query builder on the event loop that serves requests (docs/performance.md#audit-trail);
 * COPY was measured and not kept (docs/decisions.md, "Recording's cost").
 */
export async function insertAuditRows(db: Executor, rows: AuditEntry[]): Promise<void> {
  if (rows.length === 0) return;
  const usage = keyUsageOf(rows);
  const insert = sql`
    insert into ${auditLog} (at, organization_id, kind, api_key_id, user_id, method, route,
      status, duration_ms, ip, user_agent, request_id, detail, requests, offsets, durations,
      request_ids, request_id_bytes)
    select to_timestamp((r->>0)::double precision / 1000), (r->>1)::uuid, r->>2,
      (r->>3)::uuid, (r->>4)::uuid, r->>5, r->>6, (r->>7)::smallint, (r->>8)::real, r->>9,
      r->>10, r->>11, nullif(r->12, 'null'::jsonb), coalesce((r->>13)::integer, 1),
      (r->>14)::integer[], (r->>15)::real[], (r->>16)::text[], decode(r->>17, 'base64')
    from jsonb_array_elements(${writtenJson(rows)}::jsonb) as r`;
  if (usage.length === 0) {
    await db.execute(insert);
    return;
  }
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
    ${insert}`);
}

/** The organizations each user is a member of (a sign-in is recorded in each of them). */
export async function organizationsOfUsers(
  db: Executor,
  userIds: string[],
): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  if (userIds.length === 0) return found;
  const rows = await db
    .select({ userId: memberships.userId, organizationId: memberships.organizationId })
    .from(memberships)
    .where(inArray(memberships.userId, userIds));
  for (const row of rows)
    found.set(row.userId, [...(found.get(row.userId) ?? []), row.organizationId]);
  return found;
}

/**
 * Deletes at most `limit` rows older than `before` of organizations on `plan`, in one short
 * statement; the caller repeats it while it deletes a full batch. Returns the rows deleted and
 * the entries (events and requests) they held.
 */
export async function deleteExpiredAuditBatch(
  db: Executor,
  plan: Plan,
  before: Date,
  limit: number,
): Promise<{ rows: number; entries: number }> {
  const doomed = db
    .select({ at: auditLog.at, id: auditLog.id })
    .from(auditLog)
    .innerJoin(organizations, eq(organizations.id, auditLog.organizationId))
    .where(and(eq(organizations.plan, plan), lt(auditLog.at, before)))
    .limit(limit);
  const deleted = await db
    .delete(auditLog)
    .where(sql`(${auditLog.at}, ${auditLog.id}) in (${doomed})`)
    .returning({ requests: auditLog.requests });
  return { rows: deleted.length, entries: deleted.reduce((n, row) => n + row.requests, 0) };
}

/**
 * Removes the counts per key and hour (api_key_usage) of hours wholly before `before`: of
 * organizations on `plan`, or of every organization when `plan` is absent (the log's longest
 * retention, whose day partitions are dropped whole). Returns the hours removed.
 */
export async function deleteExpiredKeyUsage(
  db: Executor,
  before: Date,
  plan?: Plan,
): Promise<number> {
  const lastHour = new Date(before.getTime() - HOUR_MS);
  const old = lte(apiKeyUsage.hour, lastHour);
  const deleted = await db
    .delete(apiKeyUsage)
    .where(
      plan === undefined
        ? old
        : and(
            old,
            inArray(
              apiKeyUsage.organizationId,
              db
                .select({ id: organizations.id })
                .from(organizations)
                .where(eq(organizations.plan, plan)),
            ),
          ),
    )
    .returning({ hour: apiKeyUsage.hour });
  return deleted.length;
}
