import { type AnyPgColumn, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/** Organizational units (sites, departments) that equipment belongs to; may nest. */
export const equipmentUnits = pgTable(
  "equipment_units",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text().notNull(),
    parentId: uuid().references((): AnyPgColumn => equipmentUnits.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("equipment_units_org_created_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
  ],
);
