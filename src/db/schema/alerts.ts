import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { alertSeverityEnum, alertStatusEnum } from "./enums.ts";
import { equipment } from "./equipment.ts";
import { organizations } from "./organizations.ts";
import { users } from "./users.ts";

export const alerts = pgTable(
  "alerts",
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** the sending system, e.g. "prometheus"; with externalId it identifies a duplicate */
    source: text().notNull(),
    externalId: text(),
    severity: alertSeverityEnum().notNull().default("warning"),
    status: alertStatusEnum().notNull().default("open"),
    title: text().notNull(),
    message: text(),
    equipmentId: uuid().references(() => equipment.id, { onDelete: "set null" }),
    /** when the sender says it happened */
    occurredAt: timestamp({ withTimezone: true }),
    /** when we stored it; lists order by this */
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** who acknowledged it, when and why; cleared when it is reopened */
    acknowledgedAt: timestamp({ withTimezone: true }),
    acknowledgedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    acknowledgementNote: text(),
    /** who resolved it, when and why; cleared when it is reopened */
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    resolutionNote: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** +1 per change; the ETag compares it */
    version: integer().notNull().default(1),
  },
  (t) => [
    index("alerts_org_received_idx").on(t.organizationId, t.receivedAt.desc(), t.id.desc()),
    index("alerts_org_status_received_idx").on(
      t.organizationId,
      t.status,
      t.receivedAt.desc(),
      t.id.desc(),
    ),
    index("alerts_org_severity_received_idx").on(
      t.organizationId,
      t.severity,
      t.receivedAt.desc(),
      t.id.desc(),
    ),
    uniqueIndex("alerts_org_source_external_key")
      .on(t.organizationId, t.source, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);
