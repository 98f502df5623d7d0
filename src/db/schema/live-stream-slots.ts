import { index, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys.ts";

/**
 * Open GraphQL subscription streams, one row each, so the per-key limit holds across instances
 * (docs/decisions.md §21). Used when no Redis is configured; a row whose instance stopped
 * renewing it (crashed, killed) expires, and one whose instance holds no database session any
 * more is taken back at once.
 */
export const liveStreamSlots = pgTable(
  "live_stream_slots",
  {
    /** the stream's own id */
    id: uuid().primaryKey(),
    apiKeyId: uuid()
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    /** the holding instance (Database.newInstanceId), so a dead instance's slots can be told */
    instanceId: uuid().notNull(),
    /** renewed by the holder's heartbeat; past it the slot is free */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [index().on(table.apiKeyId), index().on(table.instanceId)],
);
