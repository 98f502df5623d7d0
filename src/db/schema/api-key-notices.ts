import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { apiKeys } from "./api-keys.ts";

/**
 * The expiry warnings of each key, one row per warning point, written with the key. An
 * instance sends a point by claiming its row (`sent_at` set in the statement that reads it),
 * so each event goes out once however many instances sweep (docs/decisions.md §18).
 */
export const apiKeyNotices = pgTable(
  "api_key_notices",
  {
    keyId: uuid()
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    /** "30d", "7d", "1d" (api_key.expiring) or "expired" (api_key.expired) */
    point: text().notNull(),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.keyId, t.point] }),
    // the sweep reads only what is due and unsent
    index("api_key_notices_due_idx").on(t.dueAt).where(sql`sent_at is null`),
  ],
);
