import { sql } from "drizzle-orm";
import { bigint, customType, index, integer, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { changeOpEnum, changeTypeEnum } from "./enums.ts";

/** Postgres' 64-bit transaction id (`xid8`, never wraps), read as its decimal text. */
export const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => "xid8",
});

/**
 * The change feed: one row per insert, update or delete of a ticket, alert or equipment,
 * written by triggers on those tables in the writing transaction itself (migration
 * 0007_change_triggers.sql), so no code path can change a record without a row here. Readers
 * see only rows whose transaction is below the oldest one still running
 * (docs/decisions.md §12). No foreign key to organizations: it is a log, and an
 * organization's cascade delete writes its records' tombstones while the organization goes.
 */
export const changes = pgTable(
  "changes",
  {
    /** the order of writing, a tie-breaker within one transaction */
    seq: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** the writing transaction (pg_current_xact_id()); the feed is ordered by (xid, seq) */
    xid: xid8().notNull().default(sql`pg_current_xact_id()`),
    organizationId: uuid().notNull(),
    type: changeTypeEnum().notNull(),
    recordId: uuid().notNull(),
    op: changeOpEnum().notNull(),
    /** whose record it is for owner-only keys: a ticket's creator, an equipment's assignee */
    ownerId: uuid(),
    /** an equipment's assignee before this change, when it changed (it left their view) */
    previousOwnerId: uuid(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("changes_org_type_position_idx").on(t.organizationId, t.type, t.xid, t.seq),
    // retention: is there a later change of the same record?
    index("changes_record_idx").on(t.recordId, t.seq),
  ],
);

/**
 * One row: how far retention has looked (`scannedSeq`) and the feed position of the last change
 * it removed (`horizonXid`, `horizonSeq`): a token before it may have missed that change (410).
 */
export const changeRetention = pgTable("change_retention", {
  id: integer().primaryKey().default(1),
  scannedSeq: bigint({ mode: "number" }).notNull().default(0),
  horizonXid: xid8().notNull().default(sql`'0'::xid8`),
  horizonSeq: bigint({ mode: "number" }).notNull().default(0),
  ranAt: timestamp({ withTimezone: true }),
});
