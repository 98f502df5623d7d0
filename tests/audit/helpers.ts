import { asc, eq, getTableColumns, sql } from "drizzle-orm";
import type { OrgitApp } from "../../src/app.ts";
import type { Db } from "../../src/db/client.ts";
import type { AuditTuple } from "../../src/db/queries/audit-fold.ts";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import type { Factories, RequestOptions } from "../helpers/harness.ts";
import { graphql, send } from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";

export const AUDIT_SCOPES = ["audit:read", "tickets:read", "tickets:write", "equipment:read"];

/** An ADMIN member whose key may read the trail (scope audit:read, permission audit.view). */
export const auditor = (make: Factories, organizationId?: string) =>
  make.member({ scopes: AUDIT_SCOPES, organizationId });

/**
 * Sends a request and waits until the trail has taken it: a request is recorded once its
 * answer is sent, which is after `app.handle` resolves.
 */
export async function sendRecorded(app: OrgitApp, path: string, options: RequestOptions = {}) {
  const stats = app.services.auditTrail.stats;
  const before = stats.received;
  const response = await send(app, path, options);
  await eventually(() => stats.received > before, `the audit trail to record ${path}`);
  return response;
}

/** `graphql` that waits until the trail has taken the request. */
export async function graphqlRecorded(...args: Parameters<typeof graphql>) {
  const stats = args[0].services.auditTrail.stats;
  const before = stats.received;
  const answer = await graphql(...args);
  await eventually(() => stats.received > before, "the audit trail to record /graphql");
  return answer;
}

/** Writes what the trail holds in memory, then reads a page as `key`. */
export async function readLog(app: OrgitApp, key: string, query = "") {
  await app.services.auditTrail.flush();
  const response = await sendRecorded(app, `/api/v1/audit-log${query}`, { key });
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answer
  return { response, json: (await response.json()) as any };
}

/** `request_id_bytes` in hexadecimal as the UUIDs it holds, 16 bytes each (none for null). */
export function uuidsOfHex(hex: string | null): string[] {
  const ids: string[] = [];
  for (let i = 0; hex && i < hex.length; i += 32) {
    const h = hex.slice(i, i + 32);
    ids.push(
      `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
    );
  }
  return ids;
}

/**
 * What `audit_log` holds for an organization as entries, read straight from the rows rather
 * than through the service's pages: a row of several requests (drizzle/0023) becomes one
 * entry per request, with its own time, duration and request id (from `request_ids`, or from
 * `request_id_bytes`, drizzle/0025). Oldest first.
 */
export async function storedEntries(db: Db, organizationId?: string) {
  const rows = await db
    // read as JSON: postgres.js turns a NULL element of a text[] into the string "NULL"
    .select({
      ...getTableColumns(auditLog),
      requestIds: sql<(string | null)[] | null>`array_to_json(${auditLog.requestIds})`,
      requestIdBytes: sql<string | null>`encode(${auditLog.requestIdBytes}, 'hex')`,
    })
    .from(auditLog)
    .where(organizationId ? eq(auditLog.organizationId, organizationId) : undefined)
    .orderBy(asc(auditLog.at), asc(auditLog.id));
  const entries = rows.flatMap((row) => {
    const { offsets, durations, requestIds, requestIdBytes, requests: _, ...fields } = row;
    if (!offsets) return [fields];
    const ids = requestIds ?? uuidsOfHex(requestIdBytes);
    return offsets.map((offset, i) => ({
      ...fields,
      at: new Date(row.at.getTime() + offset),
      durationMs: durations?.[i] ?? null,
      requestId: ids[i] ?? null,
    }));
  });
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id);
}

/** A whoami request's tuple as the recorder keeps it, for the folding tests. */
export function requestTuple(
  at: number,
  { status = 200, ip = "192.0.2.1", id = `r${at}` }: { status?: number; ip?: string; id?: string },
): AuditTuple {
  return [at, "o", "request", "k", "u", "GET", "/api/v1/whoami", status, 1, ip, null, id, null];
}
