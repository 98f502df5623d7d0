import { bigint, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { ticketPriorityEnum, ticketStatusEnum } from "./enums.ts";
import { organizations } from "./organizations.ts";

/**
 * How many tickets an organization has per creator, status and priority, kept by triggers on
 * `tickets` in the same transaction as every insert, update and delete (migration
 * 0005_ticket_count_triggers.sql), so a list's exact total is a sum over at most
 * 16 × creators rows instead of a count over every ticket (docs/performance.md). Each database
 * session adds to counters of its own (`slot`, its backend pid; migration
 * 0008_ticket_count_slots.sql), so two open transactions never wait for each other's counter;
 * the change feed's retention run folds the slots back into slot 0.
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
    /** the writing session's backend pid; 0 for folded counts */
    slot: integer().notNull().default(0),
    count: bigint({ mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.createdBy, t.status, t.priority, t.slot] })],
);
