import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { newestFirst, type Page } from "../../db/paging.ts";
import { equipment, ticketCounts, tickets } from "../../db/schema/index.ts";

export type TicketRow = typeof tickets.$inferSelect;
export type TicketStatus = TicketRow["status"];
export type TicketPriority = TicketRow["priority"];

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

/**
 * Newest first (served by the tickets_org_*_created indexes), with the exact total in the same
 * statement: a sum over ticket_counts (kept by triggers in the writes' own transactions), so a
 * page of an organization with a million tickets costs one round trip and no full count. The
 * statements are Drizzle prepared queries with placeholders, built once per shape and database:
 * no query building per request. `description` (up to 5,000 characters) is read only when the
 * caller's answer shows it.
 */
export async function listTickets(
  db: Executor,
  filter: TicketFilter,
  window: { limit: number; offset: number },
  options: { description?: boolean } = {},
): Promise<Page<TicketListRow>> {
  const shape =
    (filter.status ? STATUS : 0) |
    (filter.priority ? PRIORITY : 0) |
    (filter.createdBy ? CREATED_BY : 0) |
    (options.description ? DESCRIPTION : 0);
  const statements = preparedFor(db, shape);
  const values = {
    organizationId: filter.organizationId,
    status: filter.status,
    priority: filter.priority,
    createdBy: filter.createdBy,
    limit: window.limit,
    offset: window.offset,
  };
  const rows = await statements.page.execute(values);
  const first = rows[0];
  // an empty page says nothing of the total, except on the first page (then there is none)
  const total = first
    ? first.total
    : window.offset === 0
      ? 0
      : ((await statements.total.execute(values))[0]?.total ?? 0);
  return { data: rows, pagination: { total, ...window } };
}

export type TicketListRow = Omit<TicketRow, "organizationId" | "description"> & {
  description?: string;
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
  const sum = sql<number>`coalesce(sum(${ticketCounts.count}), 0)`.mapWith(Number);
  const total = db
    .select({ total: sum })
    .from(ticketCounts)
    .where(and(...counted));
  const name = `tickets_page_${shape}`;
  return {
    page: db
      .select({
        id: tickets.id,
        title: tickets.title,
        ...(shape & DESCRIPTION ? { description: tickets.description } : {}),
        status: tickets.status,
        priority: tickets.priority,
        equipmentId: tickets.equipmentId,
        createdBy: tickets.createdBy,
        createdAt: tickets.createdAt,
        total: sql<number>`(${total})`.mapWith(Number),
      })
      .from(tickets)
      .where(and(...where))
      .orderBy(...newestFirst(tickets.createdAt, tickets.id))
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(name),
    total: total.prepare(`tickets_total_${shape}`),
  };
}

export async function insertTicket(db: Executor, values: typeof tickets.$inferInsert) {
  const [row] = await db.insert(tickets).values(values).returning();
  return row as TicketRow;
}

/** Whether an equipment id exists in the organization (another organization's is "unknown"). */
export async function equipmentExists(db: Executor, organizationId: string, id: string) {
  const [row] = await db
    .select({ id: equipment.id })
    .from(equipment)
    .where(and(eq(equipment.id, id), eq(equipment.organizationId, organizationId)));
  return row !== undefined;
}
