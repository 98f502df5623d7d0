/**
 * The day partitions of `audit_log` (drizzle/0012_audit_log.sql): the shared day-partition
 * queries (day-partitions.ts) bound to that table, which has no default partition, so an
 * insert into a day not created yet fails and is retried after creating it.
 */
import type { Executor } from "../client.ts";
import { pgErrorCode } from "../errors.ts";
import * as days from "./day-partitions.ts";

export { DAY_MS, dayOf, rowsOf } from "./day-partitions.ts";

export const AUDIT_LOG: days.DayPartitioned = {
  table: "audit_log",
  column: "at",
  hasDefault: false,
};

/** Creates the partitions of the days holding each of `instants` (ms) that do not exist yet. */
export const ensureDayPartitions = (db: Executor, instants: number[]) =>
  days.ensureDayPartitions(db, AUDIT_LOG, instants);

/** The existing day partitions, oldest first, as the midnight (ms) of their day. */
export const dayPartitions = (db: Executor) => days.dayPartitions(db, AUDIT_LOG);

/** Drops whole day partitions of days before `beforeDay` (ms, a midnight). */
export const dropDayPartitionsBefore = (db: Executor, beforeDay: number) =>
  days.dropDayPartitionsBefore(db, AUDIT_LOG, beforeDay);

/** True for the error of an insert whose day has no partition yet. */
export const isMissingPartition = (error: unknown) => {
  if (pgErrorCode(error) === "23514") return true;
  return /no partition of relation/i.test(String((error as Error)?.message ?? error));
};
