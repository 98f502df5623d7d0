import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage, newestFirst, type PageWindow } from "../../db/paging.ts";
import {
  agentReleases,
  enrollmentTokens,
  equipment,
  equipmentUnits,
  memberships,
} from "../../db/schema/index.ts";

export type EquipmentRow = typeof equipment.$inferSelect;
export type EquipmentStatus = EquipmentRow["status"];

export interface EquipmentFilter {
  organizationId: string;
  status?: EquipmentStatus | null;
  /** only equipment assigned to this user (owners without equipment.view_all) */
  assignedUserId?: string;
}

/** Newest first; served by the equipment_org_*_created indexes. */
export function listEquipment(db: Executor, filter: EquipmentFilter, window: PageWindow) {
  const conditions: SQL[] = [eq(equipment.organizationId, filter.organizationId)];
  if (filter.status) conditions.push(eq(equipment.status, filter.status));
  if (filter.assignedUserId) conditions.push(eq(equipment.assignedUserId, filter.assignedUserId));
  const where = and(...conditions);
  return fetchPage(
    db,
    db.select().from(equipment).where(where).$dynamic(),
    { from: equipment, where },
    [equipment.createdAt, equipment.id],
    window,
    (row) => row,
    (row) => ({ at: row.createdAt, id: row.id }),
  );
}

/** Which of these unit ids belong to the organization (one query for a whole batch). */
export async function existingUnitIds(db: Executor, organizationId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: equipmentUnits.id })
    .from(equipmentUnits)
    .where(and(eq(equipmentUnits.organizationId, organizationId), inArray(equipmentUnits.id, ids)));
  return new Set(rows.map((row) => row.id));
}

/** Which of these user ids are members of the organization (one query for a whole batch). */
export async function memberUserIds(db: Executor, organizationId: string, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), inArray(memberships.userId, ids)));
  return new Set(rows.map((row) => row.id));
}

export function insertEquipment(db: Executor, rows: (typeof equipment.$inferInsert)[]) {
  return db.insert(equipment).values(rows).returning();
}

export function insertEnrollmentTokens(
  db: Executor,
  rows: (typeof enrollmentTokens.$inferInsert)[],
) {
  return db.insert(enrollmentTokens).values(rows);
}

export async function findEnrollmentToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ token: enrollmentTokens, equipment })
    .from(enrollmentTokens)
    .innerJoin(equipment, eq(equipment.id, enrollmentTokens.equipmentId))
    .where(eq(enrollmentTokens.tokenHash, tokenHash));
  return row;
}

/** Marks a single-use token used; false when another request consumed it first. */
export async function consumeEnrollmentToken(db: Executor, id: string, at: Date) {
  const rows = await db
    .update(enrollmentTokens)
    .set({ usedAt: at })
    .where(and(eq(enrollmentTokens.id, id), isNull(enrollmentTokens.usedAt)))
    .returning({ id: enrollmentTokens.id });
  return rows.length === 1;
}

/** The newest stable release for a platform, or undefined. */
export async function newestRelease(db: Executor, platform: string) {
  const [row] = await db
    .select()
    .from(agentReleases)
    .where(and(eq(agentReleases.platform, platform), eq(agentReleases.channel, "stable")))
    .orderBy(...newestFirst(agentReleases.releasedAt, agentReleases.id))
    .limit(1);
  return row;
}

/** One record of the organization; `lock` holds its row until the transaction ends. */
export async function findEquipment(
  db: Executor,
  organizationId: string,
  id: string,
  lock = false,
) {
  const query = db
    .select()
    .from(equipment)
    .where(and(eq(equipment.organizationId, organizationId), eq(equipment.id, id)));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/** Writes the changes only if the record still has `version`, and counts one more version. */
export async function updateEquipmentRow(
  db: Executor,
  organizationId: string,
  id: string,
  version: number,
  changes: Partial<Omit<typeof equipment.$inferInsert, "id" | "organizationId" | "version">>,
) {
  const [row] = await db
    .update(equipment)
    .set({ ...changes, version: sql`${equipment.version} + 1` })
    .where(
      and(
        eq(equipment.organizationId, organizationId),
        eq(equipment.id, id),
        eq(equipment.version, version),
      ),
    )
    .returning();
  return row;
}
