/**
 * The day partitions of `audit_log` (drizzle/0012_audit_log.sql): created ahead, listed and
 * dropped whole at retention. Partition names and bounds come from dates only, never from
 * input, so they are safe to splice into DDL.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { pgErrorCode } from "../errors.ts";

export const DAY_MS = 86_400_000;
const PREFIX = "audit_log_d";

/** The UTC day (its midnight in ms) holding `ms`. */
export const dayOf = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

const dayName = (day: number) =>
  PREFIX + new Date(day).toISOString().slice(0, 10).replaceAll("-", "");
const dayFromName = (name: string) =>
  Date.parse(
    `${name.slice(PREFIX.length, PREFIX.length + 4)}-${name.slice(-4, -2)}-${name.slice(-2)}T00:00:00Z`,
  );

/** Rows of a raw `execute`: postgres.js answers an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Creates the partitions of the days holding each of `instants` (ms) that do not exist yet.
 * Two instances may race to create one: the loser's duplicate error is the same outcome.
 */
export async function ensureDayPartitions(db: Executor, instants: number[]): Promise<void> {
  const days = [...new Set(instants.map(dayOf))].sort((a, b) => a - b);
  for (const day of days) {
    const from = new Date(day).toISOString();
    const to = new Date(day + DAY_MS).toISOString();
    try {
      await db.execute(
        sql.raw(
          `create table if not exists "${dayName(day)}" partition of "audit_log" ` +
            `for values from ('${from}') to ('${to}')`,
        ),
      );
    } catch (error) {
      // 42P07 duplicate_table, 23505 a concurrent create of the same type; 42P17: a partition
      // covering the day exists under another name (created by hand): fine as well
      if (!["42P07", "23505", "42P17"].includes(pgErrorCode(error) ?? "")) throw error;
    }
  }
}

/** The existing day partitions, oldest first, as the midnight (ms) of their day. */
export async function dayPartitions(db: Executor): Promise<number[]> {
  const result = await db.execute(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = 'audit_log' and c.relname like ${`${PREFIX}%`}`);
  return rowsOf<{ name: string }>(result)
    .map((row) => dayFromName(row.name))
    .filter((day) => Number.isFinite(day))
    .sort((a, b) => a - b);
}

/** Drops whole day partitions of days before `beforeDay` (ms, a midnight): no row-by-row delete. */
export async function dropDayPartitionsBefore(db: Executor, beforeDay: number): Promise<number[]> {
  const dropped: number[] = [];
  for (const day of await dayPartitions(db)) {
    if (day >= beforeDay) break;
    await db.execute(sql.raw(`drop table if exists "${dayName(day)}"`));
    dropped.push(day);
  }
  return dropped;
}

/** True for the error of an insert whose day has no partition yet. */
export const isMissingPartition = (error: unknown) => {
  if (pgErrorCode(error) === "23514") return true;
  return /no partition of relation/i.test(String((error as Error)?.message ?? error));
};
