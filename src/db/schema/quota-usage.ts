import { integer, pgTable, primaryKey, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";

/**
 * Interface A requests per organization per minute: the daily quota is the sum of the last
 * 1,440 buckets (a sliding 24 h). Instances count in memory and add their counts here in
 * batches; buckets older than a day are pruned. Range-partitioned by day on `minute`
 * (drizzle/0019_day_partitions.sql): whole days are dropped once they left the window.
 */
export const quotaUsage = pgTable(
  "quota_usage",
  {
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** start of the minute (UTC) the requests fall in */
    minute: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.minute] })],
);
