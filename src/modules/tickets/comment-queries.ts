import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { fetchPage } from "../../db/paging.ts";
import { ticketComments } from "../../db/schema/index.ts";

/** Named data access for ticket comments; every query is confined to one organization. */

export type TicketCommentRow = typeof ticketComments.$inferSelect;

export async function insertComment(db: Executor, values: typeof ticketComments.$inferInsert) {
  const [row] = await db.insert(ticketComments).values(values).returning();
  return row as TicketCommentRow;
}

/** A ticket's comments, newest first. */
export function listComments(
  db: Executor,
  organizationId: string,
  ticketId: string,
  window: { limit: number; offset: number },
) {
  const where = and(
    eq(ticketComments.organizationId, organizationId),
    eq(ticketComments.ticketId, ticketId),
  );
  return fetchPage(
    db,
    db.select().from(ticketComments).where(where).$dynamic(),
    { from: ticketComments, where },
    [ticketComments.createdAt, ticketComments.id],
    window,
    (row) => row,
    (row) => ({ at: row.createdAt, id: row.id }),
  );
}
