import { bigint, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { ticketPriorityEnum, ticketStatusEnum } from "./enums.ts";
import { organizations } from "./organizations.ts";

/**
 * How many tickets an organization has per creator, status and priority, kept by triggers on
 * `tickets` in the same transaction as every insert, update and delete (migration
 * 0005_ticket_count_triggers.sql), so a list's exact total is a sum over at most
 * 16 × creators rows instead of a count over every ticket (docs/performance.md).
 */
export const ticketCounts = pgTable(
  "ticket_counts",
  {
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** the ticket's creator (tickets.created_by): an owner-only key's total */
    createdBy: uuid().notNull(),
    status: ticketStatusEnum().notNull(),
    priority: ticketPriorityEnum().notNull(),
    count: bigint({ mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.createdBy, t.status, t.priority] })],
);
