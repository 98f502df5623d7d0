import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Each API key's requests per UTC hour, counted in the same statement that writes their
 * `audit_log` rows (src/db/queries/audit-log.ts): the settings screen's usage of a key (last
 * use, 24 h, 30 days) reads a few hundred of these instead of every row of the key in the log,
 * and the log needs no index by key for it (docs/decisions.md, audit recording's cost). Kept
 * exactly as long as the log keeps the rows they count (src/modules/audit/maintenance.ts).
 * No foreign keys, as the log: the trail outlives nothing it describes.
 */
export const apiKeyUsage = pgTable(
  "api_key_usage",
  {
    apiKeyId: uuid().notNull(),
    /** start of the UTC hour the requests fall in */
    hour: timestamp({ withTimezone: true }).notNull(),
    organizationId: uuid().notNull(),
    requests: integer().notNull(),
    /** the hour's newest request and its client address */
    lastAt: timestamp({ withTimezone: true }).notNull(),
    lastIp: text(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.hour] }), index().on(t.hour)],
);
