import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/**
 * Outbox: one row per domain event, written in the same transaction as the change it
 * describes, so neither can exist without the other.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    type: text().notNull(),
    /** the exact JSON body sent to receivers: `{ type, timestamp, data }` */
    payload: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_events_org_idx").on(t.organizationId, t.createdAt),
    // the retention purge looks for old events across organizations
    index("webhook_events_created_idx").on(t.createdAt),
  ],
);
