import type { EquipmentRow } from "./queries.ts";

/** A record as GET /api/v1/equipments/{id} answers it and as events carry it (JSON dates). */
export const equipmentJson = (row: EquipmentRow) => ({
  id: row.id,
  name: row.name,
  type: row.type,
  platform: row.platform,
  location: row.location,
  unitId: row.unitId,
  managedBy: row.managedBy,
  assignedUserId: row.assignedUserId,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  retiredAt: row.retiredAt?.toISOString() ?? null,
  version: row.version,
});
