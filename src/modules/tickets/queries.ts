import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { equipment, memberships, roles, tickets } from "../../db/schema/index.ts";

export type TicketRow = typeof tickets.$inferSelect;
export type TicketStatus = TicketRow["status"];
export type TicketPriority = TicketRow["priority"];

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

/** One ticket of the organization; `lock` holds its row until the transaction ends. */
export async function findTicket(db: Executor, organizationId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(tickets)
    .where(and(eq(tickets.organizationId, organizationId), eq(tickets.id, id)));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/**
 * Writes the changes only if the ticket still has `version` (the conditional update of
 * docs/decisions.md §17.2), and counts one more version. Undefined when it no longer has it.
 */
export async function updateTicketRow(
  db: Executor,
  organizationId: string,
  id: string,
  version: number,
  changes: Partial<
    Pick<TicketRow, "title" | "description" | "priority" | "status" | "assigneeId">
  > & {
    updatedAt: Date;
  },
) {
  const [row] = await db
    .update(tickets)
    .set({ ...changes, version: sql`${tickets.version} + 1` })
    .where(
      and(
        eq(tickets.organizationId, organizationId),
        eq(tickets.id, id),
        eq(tickets.version, version),
      ),
    )
    .returning();
  return row;
}

/** Whether the user holds an ADMIN or TECHNICIAN seat in the organization (built-in or custom role). */
export async function isAssignableMember(db: Executor, organizationId: string, userId: string) {
  const [row] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .leftJoin(
      roles,
      and(eq(roles.organizationId, memberships.organizationId), eq(roles.name, memberships.role)),
    )
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.userId, userId),
        or(
          inArray(memberships.role, ["admin", "technician"]),
          inArray(roles.seat, ["ADMIN", "TECHNICIAN"]),
        ),
      ),
    );
  return row !== undefined;
}
