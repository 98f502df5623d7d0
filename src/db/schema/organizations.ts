import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { planEnum } from "./enums.ts";

export const organizations = pgTable("organizations", {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  plan: planEnum().notNull().default("PRO"),
  /** requests per sliding 24 h; null means the plan's default */
  dailyQuota: integer(),
  /** true lifts the daily quota whatever the plan */
  unlimitedQuota: boolean().notNull().default(false),
  /** ADMIN seats sign in with a passkey, not a password (docs/settings.md, passkeys) */
  requirePasskey: boolean().notNull().default(false),
  /** the longest a new or rotated API key may live, in days; null: no maximum */
  maxKeyLifetimeDays: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => sql`now()`),
});
