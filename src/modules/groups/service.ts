import { eq, sql } from "drizzle-orm";
import { requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { fetchPage, type PageArgs, pageWindow } from "../../db/paging.ts";
import { groups } from "../../db/schema/index.ts";

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

/** Groups of the caller's organization: scope users:read and permission users.view. */
export class GroupService {
  constructor(private readonly database: Database) {}

  list(principal: Principal, args: PageArgs) {
    requireScope(principal, "users:read");
    requirePermission(principal, "users.view");
    const window = pageWindow(args);
    const db = this.database.db;
    const mine = eq(groups.organizationId, principal.organization.id);
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
    );
  }
}
