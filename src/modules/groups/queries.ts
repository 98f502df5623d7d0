import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage, type PageWindow } from "../../db/paging.ts";
import { groups } from "../../db/schema/index.ts";

/** Named data access for groups; every query is confined to one organization. */

/**
 * memberCount in the page query itself (a correlated count per row, served by the
 * group_members primary key), so a page of 200 groups is still one statement. Only users who
 * still belong to the organization count: leaving the organization leaves the group too.
 */
// Spelled out with qualified names: Drizzle leaves columns unqualified in a single-table select.
const memberCount = sql<number>`(
  select count(*)::int from group_members gm
  join memberships m on m.user_id = gm.user_id and m.organization_id = "groups"."organization_id"
  where gm.group_id = "groups"."id"
)`.mapWith(Number);

/** A page of the organization's groups with their member counts, newest first. */
export function listGroups(db: Executor, organizationId: string, window: PageWindow) {
  const mine = eq(groups.organizationId, organizationId);
  const query = db
    .select({
      id: groups.id,
      name: groups.name,
      description: groups.description,
      memberCount,
      createdAt: groups.createdAt,
    })
    .from(groups)
    .where(mine)
    .$dynamic();
  return fetchPage(
    db,
    query,
    { from: groups, where: mine },
    [groups.createdAt, groups.id],
    window,
    (row) => row,
    (row) => ({ at: row.createdAt, id: row.id }),
  );
}
