import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { webhookEvents } from "./webhook-events.ts";
import { webhookSubscriptions } from "./webhook-subscriptions.ts";

/**
 * One event to one subscription. Its id is the Standard Webhooks `webhook-id`, identical
 * across retries so receivers can deduplicate. Range-partitioned by day on `created_at`
 * (drizzle/0019_day_partitions.sql): the primary key includes `created_at` because a
 * partitioned table's must; ids are random UUIDs, so `id` alone still names one row.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid().notNull().defaultRandom(),
    eventId: uuid()
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    subscriptionId: uuid()
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: "cascade" }),
    /** pending (waiting for nextAttemptAt), delivered, failed (retries exhausted or subscription disabled) */
    status: text().notNull().default("pending"),
    attempts: integer().notNull().default(0),
    /** when the next attempt is due; null once delivered or failed */
    nextAttemptAt: timestamp({ withTimezone: true }),
    /** an instance holds the attempt until then; past it, a dead instance's claim is taken over */
    leaseUntil: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    lastError: text(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_deliveries_sub_idx").on(t.subscriptionId, t.createdAt.desc(), t.id.desc()),
    // an event's deliveries: the purge's pending check and its cascade
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);
