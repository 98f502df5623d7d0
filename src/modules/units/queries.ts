import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage, type PageWindow } from "../../db/paging.ts";
import { equipmentUnits } from "../../db/schema/index.ts";

export type UnitRow = typeof equipmentUnits.$inferSelect;

/** Named data access for organizational units; every query is confined to one organization. */

/** A page of the organization's units, newest first. */
export function listUnits(db: Executor, organizationId: string, window: PageWindow) {
  const mine = eq(equipmentUnits.organizationId, organizationId);
  return fetchPage(
    db,
    db.select().from(equipmentUnits).where(mine).$dynamic(),
    { from: equipmentUnits, where: mine },
    [equipmentUnits.createdAt, equipmentUnits.id],
    window,
    (row) => row,
    (row) => ({ at: row.createdAt, id: row.id }),
  );
}
