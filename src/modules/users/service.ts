import {
  hasPermission,
  requireApiAccess,
  requirePermission,
  requireScope,
} from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { listMembers } from "./queries.ts";

/**
 * Members of the caller's organization: scope users:read and permission users.view. The email
 * is only shown when the owner holds users.manage (null here; REST omits the field).
 */
export class MemberService {
  constructor(private readonly database: Database) {}

  async list(principal: Principal, args: PageArgs) {
    requireApiAccess(principal);
    requireScope(principal, "users:read");
    requirePermission(principal, "users.view");
    const window = pageWindow(args);
    const showEmail = hasPermission(principal, "users.manage");
    const page = await listMembers(this.database.db, principal.organization.id, window);
    return {
      data: page.data.map((row) => ({
        userId: row.userId,
        role: row.role,
        profile: {
          firstName: row.firstName,
          lastName: row.lastName,
          email: showEmail ? row.email : null,
        },
      })),
      pagination: page.pagination,
    };
  }
}
