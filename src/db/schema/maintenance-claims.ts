import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Periodic jobs that must run once across every instance (docs/decisions.md §15):
 * an instance runs a job only when it moves `nextRunAt` forward in one statement, so two
 * instances never both run the same turn, and a crashed run is taken again at the next turn.
 */
export const maintenanceClaims = pgTable("maintenance_claims", {
  name: text().primaryKey(),
  /** the job's next turn; the claim moves it forward by the job's period */
  nextRunAt: timestamp({ withTimezone: true }).notNull(),
  /** when the last claim was taken (for operators) */
  claimedAt: timestamp({ withTimezone: true }).notNull(),
});
