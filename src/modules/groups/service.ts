import { requireApiAccess, requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { listGroups } from "./queries.ts";

/** Groups of the caller's organization: scope users:read and permission users.view. */
export class GroupService {
  constructor(private readonly database: Database) {}

  list(principal: Principal, args: PageArgs) {
    requireApiAccess(principal);
    requireScope(principal, "users:read");
    requirePermission(principal, "users.view");
    return listGroups(this.database.db, principal.organization.id, pageWindow(args));
  }
}
