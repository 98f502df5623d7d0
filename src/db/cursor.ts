import { and, eq, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { validationFailed } from "../errors.ts";

/**
 * A list cursor (`after=`): the last row of a page, by id and sort time, and how many items
 * came before the page that follows it (docs/decisions.md §13). Opaque to callers:
 * base64url of `l1.<items before>.<epoch ms>.<id>`.
 */
export interface Cursor {
  /** items before the page that starts after this row */
  before: number;
  /** the row's sort time, to the millisecond (used only if the row is gone since) */
  at: Date;
  id: string;
}

const SHAPE =
  /^l1\.(\d{1,10})\.(\d{1,15})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const toBase64Url = (text: string) =>
  btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const fromBase64Url = (token: string) => {
  try {
    return atob(token.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return "";
  }
};

export const encodeCursor = (cursor: Cursor) =>
  toBase64Url(`l1.${cursor.before}.${cursor.at.getTime()}.${cursor.id}`);

/** The cursor a caller sent back; anything else is a 400 naming `after`. */
export function decodeCursor(token: string): Cursor {
  const match = /^[A-Za-z0-9_-]{1,120}$/.test(token) ? SHAPE.exec(fromBase64Url(token)) : null;
  const before = Number(match?.[1]);
  if (!match || before > 2_147_483_647) {
    throw validationFailed([
      { path: ["after"], message: "Not a cursor (use the one in the previous page's Link next)" },
    ]);
  }
  return { before, at: new Date(Number(match[2])), id: match[3] as string };
}

/**
 * `(time, id) < (the cursor row's time, its id)`: the rows after the cursor in newest-first
 * order, read by the list's index from where the cursor row sits, however deep. The row's exact
 * time (microseconds) is looked up by its id within the same filter; the cursor's millisecond
 * time stands in only when that row has been deleted since.
 */
export function afterCursor(
  table: PgTable,
  where: SQL | undefined,
  [time, id]: PgColumn[],
  cursor: Cursor,
): SQL {
  const exact = sql`(select ${time} from ${table} where ${and(where, eq(id as PgColumn, cursor.id))})`;
  return sql`(${time}, ${id}) < (coalesce(${exact}, ${cursor.at.toISOString()}::timestamptz), ${cursor.id}::uuid)`;
}
