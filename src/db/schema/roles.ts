import { pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { seatEnum } from "./enums.ts";
import { organizations } from "./organizations.ts";

/** Custom roles of one organization; the built-in `admin` and `technician` live in code. */
export const roles = pgTable(
  "roles",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** the licence seat the role occupies; API access needs ADMIN or TECHNICIAN */
    seat: seatEnum().notNull(),
    /** permission names from src/auth/permissions.ts */
    permissions: text().array().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique("roles_organization_name_key").on(t.organizationId, t.name)],
);
