import { type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgSelect } from "drizzle-orm/pg-core";
import { Problems } from "../validation.ts";
import type { Executor } from "./client.ts";

/**
 * `ORDER BY column DESC NULLS LAST, …`: newest first, in the very order of the list indexes
 * (Drizzle's `.desc()` in an index is DESC NULLS LAST). A plain `DESC` means NULLS FIRST,
 * which no index matches, NOT NULL columns or not: Postgres then read and sorted every row of
 * the organization (a parallel scan of a million tickets for a page of 50). Same rows, same
 * order, since every ordering column is NOT NULL.
 */
export const newestFirst = (...columns: PgColumn[]): SQL[] =>
  columns.map((column) => sql`${column} desc nulls last`);

/** Interface A list bounds (docs/decisions.md §6). */
export const PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const;
/** GraphQL Int is 32-bit; larger offsets could only ever return an empty page. */
export const MAX_OFFSET = 2_147_483_647;

export interface PageArgs {
  limit?: number | null;
  offset?: number | null;
}

export interface Page<T> {
  data: T[];
  pagination: { total: number; limit: number; offset: number };
}

/** Applies defaults and checks bounds, so GraphQL callers get the same 400 as REST callers. */
export function pageWindow(args: PageArgs): { limit: number; offset: number } {
  const limit = args.limit ?? PAGE_LIMIT.default;
  const offset = args.offset ?? 0;
  new Problems()
    .check(
      Number.isInteger(limit) && limit >= PAGE_LIMIT.min && limit <= PAGE_LIMIT.max,
      ["limit"],
      `Must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`,
    )
    .check(Number.isInteger(offset) && offset >= 0, ["offset"], "Must be an integer ≥ 0")
    .throwIfAny();
  return { limit, offset };
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
  count: { from: Parameters<Executor["$count"]>[0]; where?: SQL },
  order: PgColumn[],
  window: { limit: number; offset: number },
  map: (row: Awaited<Q>[number]) => T,
): Promise<Page<T>> {
  const rows = (await query
    .orderBy(...newestFirst(...order))
    .limit(window.limit)
    .offset(window.offset)) as Awaited<Q>;
  const tellsTotal = rows.length < window.limit && (rows.length > 0 || window.offset === 0);
  const total = tellsTotal ? window.offset + rows.length : await db.$count(count.from, count.where);
  return { data: rows.map(map), pagination: { total, ...window } };
}

/** Interface B lists (projects, webhooks, deliveries): page ≥ 1 (default 1), limit 1..100 (default 10). */
export const PAGE_NUMBER_LIMITS = {
  page: { min: 1, max: MAX_OFFSET, default: 1 },
  limit: { min: 1, max: 100, default: 10 },
} as const;

/** Defaults and bounds of an interface B page, the same 400 for REST and GraphQL callers. */
export function pageNumberWindow(args: { page?: number | null; limit?: number | null }) {
  const { page: p, limit: l } = PAGE_NUMBER_LIMITS;
  const page = args.page ?? p.default;
  const limit = args.limit ?? l.default;
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
  return { page, limit };
}
