import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage, type PageWindow } from "../../db/paging.ts";
import { memberships, users } from "../../db/schema/index.ts";

/** Named data access for an organization's members; every query is confined to one organization. */

/**
 * A page of the organization's members with their profiles, newest member first. The profile
 * comes from a join in the page query, so 200 members cost one statement.
 */
export function listMembers(db: Executor, organizationId: string, window: PageWindow) {
  const mine = eq(memberships.organizationId, organizationId);
  const query = db
    .select({
      userId: memberships.userId,
      role: memberships.role,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      createdAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(mine)
    .$dynamic();
  return fetchPage(
    db,
    query,
    { from: memberships, where: mine },
    [memberships.createdAt, memberships.userId],
    window,
    (row) => row,
    (row) => ({ at: row.createdAt, id: row.userId }),
  );
}
