/**
 * A tickets page: one prepared statement per shape (filters, optional columns, a cursor), its
 * rows mapped by a mapper made for its columns, the exact total in the same statement.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import {
  isoInstant,
  newestFirst,
  nextCursor,
  type Page,
  type PageWindow,
} from "../../db/paging.ts";
import { preparedRows } from "../../db/prepared-rows.ts";
import { ticketCounts, tickets } from "../../db/schema/index.ts";
import type { TicketPriority, TicketRow, TicketStatus } from "./queries.ts";

export interface TicketFilter {
  organizationId: string;
  status?: TicketStatus | null;
  priority?: TicketPriority | null;
  /** only tickets this user created (owners without tickets.view_all) */
  createdBy?: string;
}

/** Which optional conditions (and columns) a page statement has: one prepared statement each. */
const STATUS = 1;
const PRIORITY = 2;
const CREATED_BY = 4;
const DESCRIPTION = 8;
const AFTER = 16;
const HISTORY = 32;

/** What a page reads beyond the list's own columns, when the caller's answer shows it. */
export interface TicketColumns {
  /** up to 5,000 characters a row */
  description?: boolean;
  /** assigneeId, updatedAt and version: the REST list shows none of them */
  history?: boolean;
}

/**
 * Newest first (served by the tickets_org_*_created indexes), with the exact total in the same
 * statement: a sum over ticket_counts (kept by triggers in the writes' own transactions), so a
 * page of an organization with a million tickets costs one round trip and no full count. The
 * statements are Drizzle prepared queries with placeholders, built once per shape and database:
 * no query building per request. `description` (up to 5,000 characters), and the assignee,
 * the last change's time and the version, are read only when the caller's answer shows them:
 * the REST list shows neither, and a timestamp read is a Date made for each row.
 */
export async function listTickets(
  db: Executor,
  filter: TicketFilter,
  window: PageWindow,
  options: TicketColumns = {},
): Promise<Page<TicketListRow>> {
  const shape =
    (filter.status ? STATUS : 0) |
    (filter.priority ? PRIORITY : 0) |
    (filter.createdBy ? CREATED_BY : 0) |
    (options.description ? DESCRIPTION : 0) |
    (options.history ? HISTORY : 0) |
    (window.after ? AFTER : 0);
  const statements = preparedFor(db, shape);
  const values = {
    organizationId: filter.organizationId,
    status: filter.status,
    priority: filter.priority,
    createdBy: filter.createdBy,
    limit: window.limit,
    // after a cursor the page starts at the cursor's row: nothing to skip
    offset: window.after ? 0 : window.offset,
    afterId: window.after?.id,
    afterAt: window.after?.at.toISOString(),
  };
  const rows = await statements.page.execute(values);
  const first = rows[0];
  // an empty page says nothing of the total, except on the first page (then there is none)
  const total = first
    ? first.total
    : window.offset === 0
      ? 0
      : ((await statements.total.execute(values))[0]?.total ?? 0);
  const last = rows.at(-1);
  const lastRow = last && { at: new Date(last.createdAt), id: last.id };
  const next = nextCursor(window, rows.length, total, lastRow);
  const { limit, offset } = window;
  return { data: rows, pagination: { total, limit, offset, nextCursor: next } };
}

type OptionalColumn = "description" | "assigneeId" | "updatedAt" | "version";
/** A page's row; its times come as the ISO text the answers show (`isoInstant`), not as Dates. */
export type TicketListRow = Omit<TicketRow, "organizationId" | "createdAt" | OptionalColumn> &
  Partial<Pick<TicketRow, "description" | "assigneeId" | "version">> & {
    createdAt: string;
    updatedAt?: string;
  };

type Statements = ReturnType<typeof prepare>;
const prepared = new WeakMap<Executor, Map<number, Statements>>();

function preparedFor(db: Executor, shape: number): Statements {
  let byShape = prepared.get(db);
  if (!byShape) {
    byShape = new Map();
    prepared.set(db, byShape);
  }
  let statements = byShape.get(shape);
  if (!statements) {
    statements = prepare(db, shape);
    byShape.set(shape, statements);
  }
  return statements;
}

function prepare(db: Executor, shape: number) {
  const p = {
    organizationId: sql.placeholder("organizationId"),
    status: sql.placeholder("status"),
    priority: sql.placeholder("priority"),
    createdBy: sql.placeholder("createdBy"),
    afterId: sql.placeholder("afterId"),
    afterAt: sql.placeholder("afterAt"),
  };
  const where = [eq(tickets.organizationId, p.organizationId)];
  const counted = [eq(ticketCounts.organizationId, p.organizationId)];
  if (shape & STATUS) {
    where.push(eq(tickets.status, p.status));
    counted.push(eq(ticketCounts.status, p.status));
  }
  if (shape & PRIORITY) {
    where.push(eq(tickets.priority, p.priority));
    counted.push(eq(ticketCounts.priority, p.priority));
  }
  if (shape & CREATED_BY) {
    where.push(eq(tickets.createdBy, p.createdBy));
    counted.push(eq(ticketCounts.createdBy, p.createdBy));
  }
  if (shape & AFTER) {
    // the rows after the cursor's, from where tickets_org_*_created has it (docs/decisions.md
    // §13): the cursor row's exact created_at by its id, the cursor's own if it is gone
    const at = sql`coalesce((select c.created_at from tickets c where c.id = ${p.afterId}::uuid
      and c.organization_id = ${p.organizationId}), ${p.afterAt}::timestamptz)`;
    where.push(sql`(${tickets.createdAt}, ${tickets.id}) < (${at}, ${p.afterId}::uuid)`);
  }
  const sum = sql<number>`coalesce(sum(${ticketCounts.count}), 0)`.mapWith(Number);
  const total = db
    .select({ total: sum })
    .from(ticketCounts)
    .where(and(...counted));
  const fields = {
    id: tickets.id,
    title: tickets.title,
    ...(shape & DESCRIPTION ? { description: tickets.description } : {}),
    status: tickets.status,
    priority: tickets.priority,
    equipmentId: tickets.equipmentId,
    createdBy: tickets.createdBy,
    createdAt: isoInstant(tickets.createdAt),
    ...(shape & HISTORY
      ? {
          assigneeId: tickets.assigneeId,
          updatedAt: isoInstant(tickets.updatedAt),
          version: tickets.version,
        }
      : {}),
    total: sql<number>`(${total})`.mapWith(Number),
  };
  const page = db
    .select(fields)
    .from(tickets)
    .where(and(...where))
    .orderBy(...newestFirst(tickets.createdAt, tickets.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"));
  return {
    // the hottest statement: its rows mapped by a mapper made for its columns (src/db/prepared-rows.ts)
    page: preparedRows<TicketListRow & { total: number }>(
      db,
      page,
      fields,
      `tickets_page_${shape}`,
    ),
    total: total.prepare(`tickets_total_${shape}`),
  };
}
