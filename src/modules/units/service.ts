import { requireApiAccess, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { listUnits, type UnitRow } from "./queries.ts";

export const unitJson = (row: UnitRow) => ({
  id: row.id,
  name: row.name,
  parentId: row.parentId,
  createdAt: row.createdAt,
});

/**
 * Organizational units. They describe the organization's structure, not anyone's equipment,
 * so the scope equipment:read (plus API access) is enough: no role permission is required.
 */
export class UnitService {
  constructor(private readonly database: Database) {}

  async list(principal: Principal, args: PageArgs) {
    requireApiAccess(principal);
    requireScope(principal, "equipment:read");
    const page = await listUnits(this.database.db, principal.organization.id, pageWindow(args));
    return { data: page.data.map(unitJson), pagination: page.pagination };
  }
}
