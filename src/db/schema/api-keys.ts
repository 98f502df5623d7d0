import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** the owner; the key never does more than this user may */
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text().notNull(),
    /** hex SHA-256 of the whole secret; the secret itself is never stored */
    keyHash: text().notNull().unique(),
    /** first characters of the secret, to recognise a key in listings and logs */
    prefix: text().notNull(),
    scopes: text().array().notNull(),
    /** null: never expires */
    expiresAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    /** flushed in batches from memory, so it may trail real use by a few seconds */
    lastUsedAt: timestamp({ withTimezone: true }),
    /** normalized addresses and CIDRs the key is accepted from; empty: any (docs/decisions.md §18) */
    allowedIps: text().array().notNull().default(sql`'{}'::text[]`),
    /** set when the key was rotated: this row is the old secret, `replacedById` the new key */
    rotatedAt: timestamp({ withTimezone: true }),
    replacedById: uuid(),
    /** the old secret is refused with "API key rotated" from this instant on */
    graceEndsAt: timestamp({ withTimezone: true }),
    /** the last use of the old secret during its grace, and from where (flushed like lastUsedAt) */
    graceUsedAt: timestamp({ withTimezone: true }),
    graceUsedIp: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("api_keys_org_idx").on(t.organizationId, t.createdAt.desc())],
);
