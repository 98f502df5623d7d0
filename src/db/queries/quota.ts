/**
 * The SQL of the daily-quota store (src/limits/quota-store.ts): per-minute request counts per
 * organization in `quota_usage`, summed over the sliding 24 h window.
 */
import { and, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../client.ts";
import { quotaUsage } from "../schema/index.ts";

export type QuotaRow = typeof quotaUsage.$inferInsert;

/**
 * Totals of the window's minutes (from `since`, ms) per organization of `ids`, and, in the same
 * statement, `rows` added to their minutes: one round trip a flush. The totals are read from
 * the statement's snapshot, so they do not include those rows.
 */
export async function quotaTotals(
  database: Database,
  ids: string[],
  since: number,
  rows: QuotaRow[] = [],
): Promise<Map<string, number>> {
  const { db } = database;
  const totals = (rows.length > 0 ? db.with(addedCounts(database, rows)) : db)
    .select({
      organizationId: quotaUsage.organizationId,
      used: sql<number>`sum(${quotaUsage.count})::int`,
    })
    .from(quotaUsage)
    .where(and(inArray(quotaUsage.organizationId, ids), gte(quotaUsage.minute, new Date(since))))
    .groupBy(quotaUsage.organizationId);
  return new Map((await totals).map((row) => [row.organizationId, Number(row.used)]));
}

/** Adds counts to their per-minute buckets (a data-modifying WITH query). */
function addedCounts(database: Database, rows: QuotaRow[]) {
  const { db } = database;
  return db.$with("written").as(
    db
      .insert(quotaUsage)
      .values(rows)
      .onConflictDoUpdate({
        target: [quotaUsage.organizationId, quotaUsage.minute],
        set: { count: sql`${quotaUsage.count} + excluded.count` },
      })
      .returning({ organizationId: quotaUsage.organizationId }),
  );
}

/** Drops every organization's buckets of minutes before `before` (they left the window). */
export async function pruneQuotaUsage(database: Database, before: Date): Promise<void> {
  await database.db.delete(quotaUsage).where(lt(quotaUsage.minute, before));
}
