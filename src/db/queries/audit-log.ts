/**
 * The writes of the usage and audit trail (src/auth/audit-trail.ts): batches of rows in one
 * multi-row INSERT, and the batched removal of rows a shorter plan no longer keeps
 * (docs/decisions.md §15).
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { auditLog } from "../schema/audit-log.ts";
import { memberships, organizations } from "../schema/index.ts";

type Plan = typeof organizations.$inferSelect.plan;

/**
 * One audit row as the recorder keeps it until the batch is written: a tuple rather than an
 * object (no 13 property names per row in memory and in the JSON), its time in epoch ms.
 */
export type AuditTuple = [
  at: number,
  organizationId: string | null,
  kind: string,
  apiKeyId: string | null,
  userId: string | null,
  method: string | null,
  route: string | null,
  status: number | null,
  durationMs: number | null,
  ip: string | null,
  userAgent: string | null,
  requestId: string | null,
  detail: Record<string, unknown> | null,
];

/**
 * One INSERT for the whole batch, its rows handed over as one JSON parameter: a thousand rows
 * cost one parameter and one JSON.stringify of arrays rather than 13,000 bound values built by
 * the query builder on the event loop that serves requests (docs/performance.md#audit-trail).
 */
export async function insertAuditRows(db: Executor, rows: AuditTuple[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into ${auditLog} (at, organization_id, kind, api_key_id, user_id, method, route,
      status, duration_ms, ip, user_agent, request_id, detail)
    select to_timestamp((r->>0)::double precision / 1000), (r->>1)::uuid, r->>2,
      (r->>3)::uuid, (r->>4)::uuid, r->>5, r->>6, (r->>7)::smallint, (r->>8)::real, r->>9,
      r->>10, r->>11, nullif(r->12, 'null'::jsonb)
    from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as r`);
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
 * statement; the caller repeats it while it deletes a full batch. Returns the rows deleted.
 */
export async function deleteExpiredAuditBatch(
  db: Executor,
  plan: Plan,
  before: Date,
  limit: number,
): Promise<number> {
  const doomed = db
    .select({ at: auditLog.at, id: auditLog.id })
    .from(auditLog)
    .innerJoin(organizations, eq(organizations.id, auditLog.organizationId))
    .where(and(eq(organizations.plan, plan), lt(auditLog.at, before)))
    .limit(limit);
  const deleted = await db
    .delete(auditLog)
    .where(sql`(${auditLog.at}, ${auditLog.id}) in (${doomed})`)
    .returning({ id: auditLog.id });
  return deleted.length;
}
