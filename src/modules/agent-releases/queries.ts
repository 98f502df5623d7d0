import { and, eq, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage, type PageWindow } from "../../db/paging.ts";
import { agentReleases } from "../../db/schema/index.ts";

export type ReleaseRow = typeof agentReleases.$inferSelect;

/** Named data access for agent releases: one global list, published by the operator. */

/** A page of releases, newest first, filtered by platform and channel when given. */
export function releasesPage<T>(
  db: Executor,
  filters: { platform?: string | null; channel?: string | null },
  window: PageWindow,
  map: (row: ReleaseRow) => T,
) {
  const conditions: SQL[] = [];
  if (filters.platform != null) conditions.push(eq(agentReleases.platform, filters.platform));
  if (filters.channel != null) conditions.push(eq(agentReleases.channel, filters.channel));
  const where = and(...conditions);
  return fetchPage(
    db,
    db.select().from(agentReleases).where(where).$dynamic(),
    { from: agentReleases, where },
    [agentReleases.releasedAt, agentReleases.id],
    window,
    map,
    (row) => ({ at: row.releasedAt, id: row.id }),
  );
}
