import { sql } from "drizzle-orm";
import {
  bigint,
  customType,
  integer,
  jsonb,
  pgTable,
  real,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

/** Postgres' `bytea`, which drizzle-orm 0.45 has no column for. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => "bytea",
});

/**
 * The usage and audit trail (docs/security.md): authenticated API requests and key or session
 * events. An event is a row; a row of requests holds one or several (drizzle/0023: those of one
 * second that differ only in time, duration and request id, folded by the recorder). Range-partitioned by day on `at`, which Drizzle cannot declare: the
 * table and its partitions are created by SQL (drizzle/*_audit_log.sql, src/db/queries/
 * audit-partitions.ts), so this file is deliberately not exported from schema/index.ts, where
 * drizzle-kit would generate a plain table for it.
 */
export const auditLog = pgTable("audit_log", {
  /** from a sequence: with `at`, the keyset order of pages and exports */
  id: bigint({ mode: "number" }).notNull().default(sql`nextval('audit_log_id_seq')`),
  at: timestamp({ withTimezone: true }).notNull(),
  /** no foreign key: the trail outlives nothing it describes, and inserts stay cheap */
  organizationId: uuid().notNull(),
  /** `request`, or an event: api_key.created, api_key.revoked, session.signed_in, … */
  kind: text().notNull(),
  apiKeyId: uuid(),
  /** the key's owner, or the member an event is about */
  userId: uuid(),
  method: text(),
  /** the route template (`/api/v1/tickets/:id`), never the raw path or its query */
  route: text(),
  status: smallint(),
  durationMs: real(),
  ip: text(),
  userAgent: text(),
  requestId: text(),
  /** an event's facts (a key's name, a rotation's grace…); never a secret */
  detail: jsonb().$type<Record<string, unknown>>(),
  /** how many requests the row holds (1 for events and single requests) */
  requests: integer().notNull().default(1),
  /** several requests: each one's time after `at` (ms), in time order; null for one */
  offsets: integer().array(),
  /** several requests: each one's duration (`durationMs` is null) */
  durations: real().array(),
  /** several requests: each one's request id (`requestId` is null), unless `requestIdBytes` */
  requestIds: text().array(),
  /** several requests, every id a lowercase canonical UUID: their 16 bytes each (drizzle/0025) */
  requestIdBytes: bytea(),
});

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;
