import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { equipmentPlatformEnum, equipmentStatusEnum, equipmentTypeEnum } from "./enums.ts";
import { equipmentUnits } from "./equipment-units.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

export const equipment = pgTable(
  "equipment",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text().notNull(),
    type: equipmentTypeEnum().notNull(),
    platform: equipmentPlatformEnum(),
    /** free text, e.g. "Building B, floor 2" */
    location: text(),
    unitId: uuid().references(() => equipmentUnits.id, { onDelete: "set null" }),
    /** identifier of whoever manages the device (a team, an MSP); free form */
    managedBy: text(),
    /** the user the device is assigned to; owners without equipment.view_all see only these */
    assignedUserId: uuid().references(() => users.id, { onDelete: "set null" }),
    status: equipmentStatusEnum().notNull().default("pending"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** set with status `retired` (docs/decisions.md §17.3); a retired record no longer changes */
    retiredAt: timestamp({ withTimezone: true }),
    /** +1 per change; the ETag and If-Match / expectedVersion compare it */
    version: integer().notNull().default(1),
  },
  (t) => [
    index("equipment_org_created_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index("equipment_org_status_created_idx").on(
      t.organizationId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index("equipment_org_assignee_created_idx").on(
      t.organizationId,
      t.assignedUserId,
      t.createdAt.desc(),
      t.id.desc(),
    ),
  ],
);
