import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys.ts";

/**
 * `Idempotency-Key` reservations and the responses they produced (docs/decisions.md §9). Scoped
 * to the API key, so one caller's key can never replay another caller's response.
 * Range-partitioned by day on `created_at` (drizzle/0019_day_partitions.sql, which Drizzle
 * cannot declare): the key includes `created_at` because a partitioned table's unique
 * constraints must, so one record per (API key, key) is kept by the reservation's advisory lock
 * (src/db/queries/idempotency.ts), not by the key alone.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    apiKeyId: uuid()
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    key: text().notNull(),
    /** SHA-256 of method, path and canonical JSON body: the same key with another request → 409 */
    requestHash: text().notNull(),
    /** null while the first request is still running */
    statusCode: integer(),
    /**
     * the answer as `{ v, iv, data }`: AES-256-GCM under a key derived from the caller's API key
     * secret (never stored), so secrets shown once are not kept in clear (src/http/replay-cipher.ts)
     */
    responseBody: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.apiKeyId, t.key, t.createdAt] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
