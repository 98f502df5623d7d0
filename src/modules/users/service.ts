import { eq } from "drizzle-orm";
import { hasPermission, requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { fetchPage, type PageArgs, pageWindow } from "../../db/paging.ts";
import { memberships, users } from "../../db/schema/index.ts";

/**
 * Members of the caller's organization: scope users:read and permission users.view. The
 * profile comes from a join in the page query, so 200 members cost one statement; the email
 * is only read out when the owner holds users.manage.
 */
export class MemberService {
  constructor(private readonly database: Database) {}

  list(principal: Principal, args: PageArgs) {
    requireScope(principal, "users:read");
    requirePermission(principal, "users.view");
    const window = pageWindow(args);
    const showEmail = hasPermission(principal, "users.manage");
    const db = this.database.db;
    const mine = eq(memberships.organizationId, principal.organization.id);
    const query = db
      .select({
        userId: memberships.userId,
        role: memberships.role,
        firstName: users.firstName,
        lastName: users.lastName,
        email: users.email,
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
      (row) => ({
        userId: row.userId,
        role: row.role,
        profile: {
          firstName: row.firstName,
          lastName: row.lastName,
          email: showEmail ? row.email : null,
        },
      }),
    );
  }
}
