import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage, type PageWindow } from "../../db/paging.ts";
import { alerts, equipment, ingestSources, organizations } from "../../db/schema/index.ts";

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlert = typeof alerts.$inferInsert & { id: string };

/** Named data access for alerts and ingest; every query is confined to one organization. */

export interface AlertFilter {
  organizationId: string;
  status?: AlertRow["status"] | null;
  severity?: AlertRow["severity"] | null;
}

/** A page of the organization's alerts, optionally of one status and severity; newest received first. */
export function listAlerts(db: Executor, filter: AlertFilter, window: PageWindow) {
  const conditions: SQL[] = [eq(alerts.organizationId, filter.organizationId)];
  if (filter.status != null) conditions.push(eq(alerts.status, filter.status));
  if (filter.severity != null) conditions.push(eq(alerts.severity, filter.severity));
  const where = and(...conditions);
  return fetchPage(
    db,
    db.select().from(alerts).where(where).$dynamic(),
    { from: alerts, where },
    [alerts.receivedAt, alerts.id],
    window,
    (row) => row,
    (row) => ({ at: row.receivedAt, id: row.id }),
  );
}

/**
 * The organization whose ingest source covers this address. The gist index on `cidr` serves
 * `<<=`. Overlapping sources of different organizations are resolved by the most specific
 * network, then the oldest source, so the answer never depends on row order.
 */
export async function organizationForAddress(db: Executor, ip: string) {
  const [row] = await db
    .select({ id: organizations.id, plan: organizations.plan })
    .from(ingestSources)
    .innerJoin(organizations, eq(organizations.id, ingestSources.organizationId))
    .where(sql`${ip}::inet <<= ${ingestSources.cidr}`)
    .orderBy(sql`masklen(${ingestSources.cidr}) desc`, ingestSources.createdAt, ingestSources.id)
    .limit(1);
  return row;
}

/** Which of these ids are equipment of the organization. */
export async function existingEquipmentIds(db: Executor, organizationId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: equipment.id })
    .from(equipment)
    .where(and(eq(equipment.organizationId, organizationId), inArray(equipment.id, ids)));
  return new Set(rows.map((row) => row.id));
}

/**
 * Inserts the alerts, skipping any whose source + externalId the organization already has
 * (the partial unique index; a concurrent twin waits for the first and is skipped too).
 * Answers the rows actually inserted.
 */
export function insertAlertsSkippingDuplicates(db: Executor, rows: NewAlert[]) {
  return db.insert(alerts).values(rows).onConflictDoNothing().returning();
}

/** One alert of the organization; `lock` holds its row until the transaction ends. */
export async function findAlert(db: Executor, organizationId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(alerts)
    .where(and(eq(alerts.organizationId, organizationId), eq(alerts.id, id)));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** Writes a move only if the alert still has `version`, and counts one more version. */
export async function updateAlertRow(
  db: Executor,
  organizationId: string,
  id: string,
  version: number,
  changes: Partial<Omit<NewAlert, "id" | "organizationId" | "version">>,
) {
  const [row] = await db
    .update(alerts)
    .set({ ...changes, version: sql`${alerts.version} + 1` })
    .where(
      and(
        eq(alerts.organizationId, organizationId),
        eq(alerts.id, id),
        eq(alerts.version, version),
      ),
    )
    .returning();
  return row;
}

/** Ids of the organization's alerts with these source + externalId pairs, keyed `source\0id`. */
export async function alertIdsByExternalKey(
  db: Executor,
  organizationId: string,
  keys: { source: string; externalId: string }[],
) {
  if (keys.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: alerts.id, source: alerts.source, externalId: alerts.externalId })
    .from(alerts)
    .where(
      and(
        eq(alerts.organizationId, organizationId),
        inArray(alerts.externalId, [...new Set(keys.map((key) => key.externalId))]),
        inArray(alerts.source, [...new Set(keys.map((key) => key.source))]),
      ),
    );
  return new Map(rows.map((row) => [externalKey(row.source, row.externalId as string), row.id]));
}

export const externalKey = (source: string, externalId: string) => `${source}\u0000${externalId}`;
