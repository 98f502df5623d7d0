/**
 * Day partitions of the append-only tables (range-partitioned by a timestamp column): created
 * ahead, listed and dropped whole at retention (docs/decisions.md §15, §24). Partition names
 * and bounds come from dates and from the constant table list, never from input, so they are
 * safe to splice into DDL.
 */
import { sql } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { pgErrorCode } from "../errors.ts";

export const DAY_MS = 86_400_000;

/** A table range-partitioned by day on `column`; `hasDefault`: it has a `<table>_default` partition. */
export interface DayPartitioned {
  table: string;
  column: string;
  hasDefault: boolean;
}

/** The UTC day (its midnight in ms) holding `ms`. */
export const dayOf = (ms: number) => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

const prefixOf = (spec: DayPartitioned) => `${spec.table}_d`;
export const dayName = (spec: DayPartitioned, day: number) =>
  prefixOf(spec) + new Date(day).toISOString().slice(0, 10).replaceAll("-", "");
const dayFromName = (prefix: string, name: string) =>
  Date.parse(
    `${name.slice(prefix.length, prefix.length + 4)}-${name.slice(-4, -2)}-${name.slice(-2)}T00:00:00Z`,
  );

/** Rows of a raw `execute`: postgres.js answers an array, PGlite `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

const bounds = (day: number) =>
  `from ('${new Date(day).toISOString()}') to ('${new Date(day + DAY_MS).toISOString()}')`;

/** How long partition DDL waits for a lock before giving up until the next turn. */
const LOCK_TIMEOUT = "2s";

/**
 * Runs partition DDL in a transaction that first takes the tables `spec`'s foreign keys point
 * to (SHARE ROW EXCLUSIVE, as adding or dropping a partition's foreign key does), then `spec`'s
 * own table: the order a request takes them in (a project's event is written before its
 * deliveries), so DDL and requests wait for each other but never deadlock. It waits at most
 * LOCK_TIMEOUT for a lock, then fails (the next turn retries) rather than queue every writer.
 */
async function withPartitionLocks(
  db: Executor,
  spec: DayPartitioned,
  parentMode: "share update exclusive" | "access exclusive",
  ddl: (tx: Executor) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
    const referenced = rowsOf<{ name: string }>(
      await tx.execute(sql`
        select distinct confrelid::regclass::text as name from pg_constraint
        where conrelid = ${spec.table}::regclass and contype = 'f' order by 1`),
    ).map((row) => row.name);
    if (referenced.length > 0) {
      await tx.execute(sql.raw(`lock table ${referenced.join(", ")} in share row exclusive mode`));
    }
    await tx.execute(sql.raw(`lock table only "${spec.table}" in ${parentMode} mode`));
    await ddl(tx);
  });
}

/**
 * Creates the partitions of the days holding each of `instants` (ms) that do not exist yet:
 * built as a plain table with the parent's columns, defaults, checks and column storage
 * (audit_log keeps its arrays and request ids' bytes uncompressed, drizzle/0024 and 0025),
 * filled with the default partition's rows of that day (rows copied by the migration that
 * partitioned the table, or written for a day not created yet), then attached, which takes a
 * lock that lets writers of the table go on. Two instances may race to create one: the loser's
 * duplicate error is the same outcome.
 */
export async function ensureDayPartitions(
  db: Executor,
  spec: DayPartitioned,
  instants: number[],
): Promise<void> {
  const wanted = [...new Set(instants.map(dayOf))].sort((a, b) => a - b);
  const existing = new Set(await dayPartitions(db, spec));
  for (const day of wanted) {
    if (existing.has(day)) continue;
    const name = dayName(spec, day);
    try {
      await withPartitionLocks(db, spec, "share update exclusive", async (tx) => {
        await tx.execute(
          sql.raw(
            `create table "${name}" (like "${spec.table}" including defaults including constraints including storage)`,
          ),
        );
        if (spec.hasDefault) {
          // the attach below needs the default partition's ACCESS EXCLUSIVE lock: taken before
          // its rows are moved, not after. Taken after, a request that held the partition (a
          // delivery's update) waited for a moved row's lock while the attach waited for it: a
          // deadlock, which Postgres broke by failing the request
          await tx.execute(sql.raw(`lock table "${spec.table}_default" in access exclusive mode`));
          const inDay =
            `"${spec.column}" >= '${new Date(day).toISOString()}' ` +
            `and "${spec.column}" < '${new Date(day + DAY_MS).toISOString()}'`;
          await tx.execute(
            sql.raw(
              `with moved as (delete from "${spec.table}_default" where ${inDay} returning *) ` +
                `insert into "${name}" select * from moved`,
            ),
          );
        }
        await tx.execute(
          sql.raw(
            `alter table "${spec.table}" attach partition "${name}" for values ${bounds(day)}`,
          ),
        );
      });
    } catch (error) {
      // 42P07 duplicate_table, 23505 a concurrent create of the same type; 42P17: a partition
      // covering the day exists under another name (created by hand): fine as well
      if (!["42P07", "23505", "42P17"].includes(pgErrorCode(error) ?? "")) throw error;
    }
  }
}

/** The existing day partitions, oldest first, as the midnight (ms) of their day. */
export async function dayPartitions(db: Executor, spec: DayPartitioned): Promise<number[]> {
  const prefix = prefixOf(spec);
  const result = await db.execute(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = ${spec.table} and c.relname like ${`${prefix}%`}`);
  return rowsOf<{ name: string }>(result)
    .map((row) => dayFromName(prefix, row.name))
    .filter((day) => Number.isFinite(day))
    .sort((a, b) => a - b);
}

/**
 * Drops whole day partitions of days before `beforeDay` (ms, a midnight): no row-by-row
 * delete. `keep` (a condition on the partition's rows, SQL) holds back a day that has any row
 * matching it, so a day with a delivery still pending stays until it settles.
 */
export async function dropDayPartitionsBefore(
  db: Executor,
  spec: DayPartitioned,
  beforeDay: number,
  keep?: string,
): Promise<number[]> {
  const dropped: number[] = [];
  for (const day of await dayPartitions(db, spec)) {
    if (day >= beforeDay) break;
    const name = dayName(spec, day);
    if (keep) {
      const held = await db.execute(sql.raw(`select 1 from "${name}" where ${keep} limit 1`));
      if (rowsOf(held).length > 0) continue;
    }
    await withPartitionLocks(db, spec, "access exclusive", async (tx) => {
      await tx.execute(sql.raw(`drop table if exists "${name}"`));
    });
    dropped.push(day);
  }
  return dropped;
}

/**
 * Deletes the default partition's rows from before `before` (not matching `keep`): rows the
 * migration copied in, or written for a day no partition covered. Answers how many went.
 */
export async function deleteDefaultRowsBefore(
  db: Executor,
  spec: DayPartitioned,
  before: Date,
  keep?: string,
): Promise<number> {
  const result = await db.execute(
    sql.raw(
      `with gone as (delete from "${spec.table}_default" where "${spec.column}" < ` +
        `'${before.toISOString()}'${keep ? ` and not (${keep})` : ""} returning 1) ` +
        `select count(*)::int as n from gone`,
    ),
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
