import { and, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import { validationFailed } from "../errors.ts";
import { Problems } from "../validation.ts";
import type { Executor } from "./client.ts";
import { afterCursor, type Cursor, decodeCursor, encodeCursor } from "./cursor.ts";

/**
 * `ORDER BY column DESC NULLS LAST, …`: newest first, in the very order of the list indexes
 * (Drizzle's `.desc()` in an index is DESC NULLS LAST). A plain `DESC` means NULLS FIRST,
 * which no index matches, NOT NULL columns or not: Postgres then read and sorted every row of
 * the organization (a parallel scan of a million tickets for a page of 50). Same rows, same
 * order, since every ordering column is NOT NULL.
 */
export const newestFirst = (...columns: PgColumn[]): SQL[] =>
  columns.map((column) => sql`${column} desc nulls last`);

/**
 * A time column as the answers write it (`toISOString`'s text, milliseconds truncated as a
 * Date truncates them), made by Postgres: a page's row then carries the answer's own text, and
 * no Date is made of it to be written back out (`DateTime` passes such text as it is;
 * docs/decisions.md §41).
 */
export const isoInstant = (column: PgColumn): SQL<string> =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Interface A list bounds (docs/decisions.md §6). */
export const PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const;
/** GraphQL Int is 32-bit; larger offsets could only ever return an empty page. */
export const MAX_OFFSET = 2_147_483_647;

export interface PageArgs {
  limit?: number | null;
  offset?: number | null;
  /** a cursor from the previous page (docs/decisions.md §13); not with offset */
  after?: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: { total: number; limit: number; offset: number; nextCursor: string | null };
}

/** Where a page starts: an offset, or the row after a cursor (then `offset` is the cursor's count). */
export interface PageWindow {
  limit: number;
  offset: number;
  after?: Cursor;
}

/** Applies defaults and checks bounds, so GraphQL callers get the same 400 as REST callers. */
export function pageWindow(args: PageArgs): PageWindow {
  const limit = args.limit ?? PAGE_LIMIT.default;
  if (args.after != null && args.offset != null) {
    throw validationFailed([{ path: ["after"], message: "Give either after or offset, not both" }]);
  }
  const after = args.after != null ? decodeCursor(args.after) : undefined;
  const offset = after ? after.before : (args.offset ?? 0);
  new Problems()
    .check(
      Number.isInteger(limit) && limit >= PAGE_LIMIT.min && limit <= PAGE_LIMIT.max,
      ["limit"],
      `Must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`,
    )
    .check(Number.isInteger(offset) && offset >= 0, ["offset"], "Must be an integer ≥ 0")
    .throwIfAny();
  return after ? { limit, offset, after } : { limit, offset };
}

/** The cursor of a page's next page, or null when it is the last one. */
export function nextCursor(
  window: PageWindow,
  rows: number,
  total: number,
  last: { at: Date; id: string } | undefined,
): string | null {
  const before = window.offset + rows;
  if (!last || rows < window.limit || before >= total) return null;
  return encodeCursor({ before, at: last.at, id: last.id });
}

/**
 * One page of a list plus its total. The order is always the given columns descending (newest
 * first, id as the tie-breaker), so pages are stable: a row never appears on two pages nor falls
 * between them while nothing is written. A page that is not full (and not past the end) tells
 * its total by itself, offset + rows, exact in the page statement's own snapshot: small lists
 * cost one round trip; a full page (or one past the end) is counted by a second statement.
 */
export async function fetchPage<Q extends PgSelect, T>(
  db: Executor,
  query: Q,
  count: { from: PgTable; where?: SQL },
  order: PgColumn[],
  window: PageWindow,
  map: (row: Awaited<Q>[number]) => T,
  /** the sort time and id of a row, for the next page's cursor */
  key: (row: Awaited<Q>[number]) => { at: Date; id: string },
): Promise<Page<T>> {
  const { limit, offset, after } = window;
  // with a cursor: the same filter plus "after that row", from where the index has it
  const scoped = after
    ? query.where(and(count.where, afterCursor(count.from, count.where, order, after)))
    : query.offset(offset);
  const rows = (await scoped.orderBy(...newestFirst(...order)).limit(limit)) as Awaited<Q>;
  const tellsTotal = rows.length < limit && (rows.length > 0 || offset === 0);
  const total = tellsTotal ? offset + rows.length : await db.$count(count.from, count.where);
  const last = rows.at(-1);
  return {
    data: rows.map(map),
    pagination: {
      total,
      limit,
      offset,
      nextCursor: nextCursor(window, rows.length, total, last && key(last)),
    },
  };
}

/** Interface B lists (projects, webhooks, deliveries): page ≥ 1 (default 1), limit 1..100 (default 10). */
export const PAGE_NUMBER_LIMITS = {
  page: { min: 1, max: MAX_OFFSET, default: 1 },
  limit: { min: 1, max: 100, default: 10 },
} as const;

/**
 * Defaults and bounds of an interface B page, the same 400 for REST and GraphQL callers. With a
 * cursor (`after`, not with `page`) the page is the one the cursor's count falls in.
 */
export function pageNumberWindow(args: {
  page?: number | null;
  limit?: number | null;
  after?: string | null;
}): PageWindow & { page: number } {
  const { page: p, limit: l } = PAGE_NUMBER_LIMITS;
  if (args.after != null && args.page != null) {
    throw validationFailed([{ path: ["after"], message: "Give either after or page, not both" }]);
  }
  const after = args.after != null ? decodeCursor(args.after) : undefined;
  const limit = args.limit ?? l.default;
  const page = after ? Math.floor(after.before / Math.max(1, limit)) + 1 : (args.page ?? p.default);
  new Problems()
    .check(
      Number.isInteger(page) && page >= p.min && page <= p.max,
      ["page"],
      `Must be an integer from ${p.min} to ${p.max}`,
    )
    .check(
      Number.isInteger(limit) && limit >= l.min && limit <= l.max,
      ["limit"],
      `Must be an integer from ${l.min} to ${l.max}`,
    )
    .throwIfAny();
  const offset = after ? after.before : (page - 1) * limit;
  return after ? { page, limit, offset, after } : { page, limit, offset };
}

export interface PageNumberArgs {
  page?: number | null;
  limit?: number | null;
  after?: string | null;
}

/** An interface B page's pagination, with the next page's cursor. */
export function numberedPage(
  window: PageWindow & { page: number },
  rows: { createdAt: Date; id: string }[],
  total: number,
) {
  const last = rows.at(-1);
  const next = nextCursor(window, rows.length, total, last && { at: last.createdAt, id: last.id });
  return { page: window.page, limit: window.limit, total, nextCursor: next };
}

/** A page query from a window: after the cursor's row, or skipping `offset` rows. */
export function windowed<Q extends PgSelect>(
  query: Q,
  table: PgTable,
  where: SQL,
  order: PgColumn[],
  window: PageWindow,
): Q {
  const scoped = window.after
    ? query.where(and(where, afterCursor(table, where, order, window.after)))
    : query.offset(window.offset);
  return scoped.orderBy(...newestFirst(...order)).limit(window.limit) as Q;
}
