import { and, eq, type SQL } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { equipment, tickets } from "../../db/schema/index.ts";
import { fetchPage } from "../shared/page.ts";

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

/** Newest first; served by the tickets_org_*_created indexes. */
export function listTickets(
  db: Executor,
  filter: TicketFilter,
  window: { limit: number; offset: number },
) {
  const conditions: SQL[] = [eq(tickets.organizationId, filter.organizationId)];
  if (filter.status) conditions.push(eq(tickets.status, filter.status));
  if (filter.priority) conditions.push(eq(tickets.priority, filter.priority));
  if (filter.createdBy) conditions.push(eq(tickets.createdBy, filter.createdBy));
  const where = and(...conditions);
  return fetchPage(
    db,
    db.select().from(tickets).where(where).$dynamic(),
    { from: tickets, where },
    [tickets.createdAt, tickets.id],
    window,
    (row) => row,
  );
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
