import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { FEED_BOUND } from "./queries.ts";

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * One retention batch, across organizations, in one statement: claims the change_retention
 * row (SKIP LOCKED: while another instance holds it, this one does nothing), looks at up to
 * `batch` changes after the last one looked at, in writing order, stopping at the first that is
 * not older than `before` or whose transaction may still be running, and removes the
 * tombstones among them and the changes a later change of the same record superseded. The last
 * change of a live record stays for good, so a sync from the beginning still sees every record.
 * Answers null when another instance held the claim.
 */
export async function pruneChangesBatch(
  db: Executor,
  before: Date,
  batch: number,
): Promise<{ scanned: number; removed: number } | null> {
  const result = await db.execute(sql`
    with state as (
      select scanned_seq from change_retention where id = 1 for update skip locked
    ), look as (
      select c.seq, c.xid, c.op, c.record_id, c.at from changes c, state
      where c.seq > state.scanned_seq order by c.seq limit ${batch}
    ), ready as (
      select * from look where look.seq < coalesce((
        select min(seq) from look
        where at >= ${before.toISOString()}::timestamptz
          or xid >= (select ${FEED_BOUND} from (select pg_current_snapshot() as snapshot) s)
      ), 9223372036854775807)
    ), gone as (
      delete from changes c using ready r
      where c.seq = r.seq and (r.op = 'delete' or exists (
        select 1 from changes later where later.record_id = r.record_id and later.seq > r.seq
      ))
      returning c.xid, c.seq
    ), moved as (
      update change_retention set
        scanned_seq = coalesce((select max(seq) from ready), scanned_seq),
        (horizon_xid, horizon_seq) = (
          select h.xid, h.seq from (
            select xid, seq from gone
            union all select horizon_xid, horizon_seq from change_retention where id = 1
          ) h order by h.xid desc, h.seq desc limit 1
        )
      where id = 1 and exists (select 1 from state)
      returning 1
    )
    select (select count(*) from state)::int as claimed, (select count(*) from ready)::int as scanned,
      (select count(*) from gone)::int as removed, (select count(*) from moved)::int as moved`);
  const [row] = rowsOf<{ claimed: number; scanned: number; removed: number }>(result);
  if (!row || Number(row.claimed) === 0) return null;
  return { scanned: Number(row.scanned), removed: Number(row.removed) };
}

/**
 * Folds up to `batch` per-session ticket counters (slot ≠ 0, migration
 * 0009_ticket_count_slot_triggers.sql) into slot 0 in one statement, so the rows a total sums
 * stay few; counters of a transaction still open are locked and skipped until a later run.
 * Answers how many were folded.
 */
export async function foldTicketCounts(db: Executor, batch: number): Promise<number> {
  const result = await db.execute(sql`
    with moved as (
      delete from ticket_counts where ctid in (
        select ctid from ticket_counts where slot <> 0 limit ${batch} for update skip locked
      )
      returning organization_id, created_by, status, priority, count
    ), folded as (
      insert into ticket_counts as c (organization_id, created_by, status, priority, slot, count)
      select organization_id, created_by, status, priority, 0, sum(count) from moved
      group by 1, 2, 3, 4 order by 1, 2, 3, 4
      on conflict (organization_id, created_by, status, priority, slot)
      do update set count = c.count + excluded.count
      returning 1
    )
    select (select count(*) from moved)::int as folded, (select count(*) from folded)::int as kept`);
  const [row] = rowsOf<{ folded: number }>(result);
  return Number(row?.folded ?? 0);
}
