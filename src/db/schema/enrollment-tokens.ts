import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tokenKindEnum } from "./enums.ts";
import { equipment } from "./equipment.ts";
import { organizations } from "./organizations.ts";

/** Agent install tokens behind `/install/:token`, one per created equipment record. */
export const enrollmentTokens = pgTable("enrollment_tokens", {
  id: uuid().primaryKey().defaultRandom(),
  organizationId: uuid()
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  equipmentId: uuid()
    .notNull()
    .references(() => equipment.id, { onDelete: "cascade" }),
  /** hex SHA-256 of the token in the install URL */
  tokenHash: text().notNull().unique(),
  /** bulk: reusable for 7 days; invitation: single use within 30 days */
  kind: tokenKindEnum().notNull(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  /** set when an invitation token is consumed */
  usedAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
