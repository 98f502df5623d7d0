import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { alerts, equipment, tickets } from "../../db/schema/index.ts";
import type { ChangeType } from "../../generated/graphql.ts";

/** A place in the feed: the feed is ordered by (writing transaction, sequence). */
export interface Position {
  /** xid8 as decimal text */
  xid: string;
  seq: string;
}

/** a < b in feed order */
export const isBefore = (a: Position, b: Position) =>
  BigInt(a.xid) < BigInt(b.xid) || (a.xid === b.xid && BigInt(a.seq) < BigInt(b.seq));

/** Before every change. */
export const BEGINNING: Position = { xid: "0", seq: "0" };
/** the largest sequence: (x, SEQ_MAX) is "after every change of transaction x" */
export const SEQ_MAX = "9223372036854775807";

export interface ChangeRow {
  xid: string;
  seq: string;
  type: ChangeType;
  recordId: string;
  op: "upsert" | "delete";
  at: Date;
}

export interface ChangeFilter {
  organizationId: string;
  types: readonly ChangeType[];
  /** per type, the user an owner-only key follows (absent: every record of the type) */
  ownerOf: Partial<Record<ChangeType, string>>;
}

/**
 * The oldest transaction of this database still running in the statement's snapshot (its
 * xmax when none is): the snapshot's xmin, except that a transaction which pg_stat_activity
 * shows in another database of the cluster is not waited for (it can write no change here).
 * An xid whose session is gone or hidden counts as ours, so the bound is never too high.
 */
export const FEED_BOUND = sql`(select coalesce(min(x), pg_snapshot_xmax(s.snapshot))
  from pg_snapshot_xip(s.snapshot) as x
  where not exists (
    select 1 from pg_stat_activity a
    where a.backend_xid = x::xid and a.datname <> current_database()
  ))`;

function rowsOf<T>(result: unknown): T[] {
  // postgres.js answers an array of rows, PGlite an object with `rows`
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Up to `limit` changes after `after`, in feed order, the snapshot's xmin and the retention
 * horizon (the position of the last change removed, change_retention): only changes of
 * transactions below the oldest one still running are read, so every change a later call
 * could see sorts after the last one answered now (docs/decisions.md §12). One
 * statement: a range scan of changes_org_type_position_idx per type, merged by the sort.
 */
export async function readChanges(
  db: Executor,
  filter: ChangeFilter,
  after: Position,
  limit: number,
): Promise<{ rows: ChangeRow[]; xmin: string; horizon: Position }> {
  const parts = filter.types.map((type) => {
    const owner = filter.ownerOf[type];
    const mine: SQL = owner
      ? type === "equipment"
        ? sql` and (c.owner_id = ${owner} or c.previous_owner_id = ${owner})`
        : sql` and c.owner_id = ${owner}`
      : sql``;
    return sql`(select c.xid, c.seq, c.type, c.record_id, c.op, c.at from changes c
      where c.organization_id = ${filter.organizationId} and c.type = ${type}
        and c.xid < b.xmin
        and (c.xid, c.seq) > (${after.xid}::xid8, ${after.seq}::bigint)${mine}
      order by c.xid, c.seq limit ${limit})`;
  });
  // the bound and the rows come from one statement, hence one snapshot: a bound read apart
  // could pass a transaction that committed in between
  const result = await db.execute(sql`
    select b.xmin::text as xmin, b.hxid::text as hxid, b.hseq::text as hseq, f.xid::text as xid, f.seq::text as seq, f.type::text as type,
      f.record_id as "recordId", f.op::text as op, f.at
    from (
      select ${FEED_BOUND} as xmin,
        h.horizon_xid as hxid, h.horizon_seq as hseq
      from (select pg_current_snapshot() as snapshot) s left join change_retention h on h.id = 1
    ) b
    left join lateral (
      select * from (${sql.join(parts, sql` union all `)}) u order by u.xid, u.seq limit ${limit}
    ) f on true
    order by f.xid, f.seq`);
  type Row = Omit<ChangeRow, "at"> & {
    xmin: string;
    hxid: string | null;
    hseq: string | null;
    at: Date | string;
  };
  const rows = rowsOf<Row>(result);
  return {
    rows: rows
      .filter((row) => row.xid !== null)
      .map(({ xmin: _x, hxid: _h, hseq: _s, ...row }) => ({ ...row, at: new Date(row.at) })),
    xmin: rows[0]?.xmin ?? "0",
    horizon: { xid: rows[0]?.hxid ?? "0", seq: rows[0]?.hseq ?? "0" },
  };
}

/** The organization's tickets with these ids (owner-only: the creator's). */
export function ticketsByIds(db: Executor, organizationId: string, ids: string[], owner?: string) {
  const where = [eq(tickets.organizationId, organizationId), inArray(tickets.id, ids)];
  if (owner) where.push(eq(tickets.createdBy, owner));
  return db
    .select()
    .from(tickets)
    .where(and(...where));
}

export function alertsByIds(db: Executor, organizationId: string, ids: string[]) {
  return db
    .select()
    .from(alerts)
    .where(and(eq(alerts.organizationId, organizationId), inArray(alerts.id, ids)));
}

/** The organization's equipment with these ids (owner-only: assigned to the owner). */
export function equipmentByIds(
  db: Executor,
  organizationId: string,
  ids: string[],
  owner?: string,
) {
  const where = [eq(equipment.organizationId, organizationId), inArray(equipment.id, ids)];
  if (owner) where.push(eq(equipment.assignedUserId, owner));
  return db
    .select()
    .from(equipment)
    .where(and(...where));
}
