import { eq } from "drizzle-orm";
import { requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { fetchPage, type PageArgs, pageWindow } from "../../db/paging.ts";
import { equipmentUnits } from "../../db/schema/index.ts";

type UnitRow = typeof equipmentUnits.$inferSelect;

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

  list(principal: Principal, args: PageArgs) {
    requireScope(principal, "equipment:read");
    const window = pageWindow(args);
    const db = this.database.db;
    const mine = eq(equipmentUnits.organizationId, principal.organization.id);
    return fetchPage(
      db,
      db.select().from(equipmentUnits).where(mine).$dynamic(),
      { from: equipmentUnits, where: mine },
      [equipmentUnits.createdAt, equipmentUnits.id],
      window,
      unitJson,
    );
  }
}
