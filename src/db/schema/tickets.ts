import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { ticketPriorityEnum, ticketStatusEnum } from "./enums.ts";
import { equipment } from "./equipment.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

export const tickets = pgTable(
  "tickets",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    title: text().notNull(),
    description: text().notNull(),
    status: ticketStatusEnum().notNull().default("open"),
    priority: ticketPriorityEnum().notNull().default("medium"),
    equipmentId: uuid().references(() => equipment.id, { onDelete: "set null" }),
    /** the key owner on whose behalf the ticket was created */
    createdBy: uuid()
      .notNull()
      .references(() => users.id),
    /** the member working on it: an ADMIN or TECHNICIAN seat of the organization, or null */
    assigneeId: uuid().references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** +1 per change; the ETag and If-Match / expectedVersion compare it */
    version: integer().notNull().default(1),
  },
  (t) => [
    index("tickets_org_created_idx").on(t.organizationId, t.createdAt.desc(), t.id.desc()),
    index("tickets_org_status_created_idx").on(
      t.organizationId,
      t.status,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index("tickets_org_priority_created_idx").on(
      t.organizationId,
      t.priority,
      t.createdAt.desc(),
      t.id.desc(),
    ),
    index("tickets_org_creator_created_idx").on(
      t.organizationId,
      t.createdBy,
      t.createdAt.desc(),
      t.id.desc(),
    ),
  ],
);
