import type { TicketRow } from "./queries.ts";

/** The fields every ticket answer and event carries (GraphQL's Ticket, a row). */
export type TicketFields = Pick<
  TicketRow,
  "id" | "title" | "status" | "priority" | "equipmentId" | "createdBy" | "assigneeId" | "version"
> & {
  description: string;
  createdAt: Date | string;
  updatedAt: Date | string;
};

const iso = (at: Date | string) => (typeof at === "string" ? at : at.toISOString());

/**
 * One ticket as GET /api/v1/tickets/{id} answers it and as events carry it: the tickets'
 * snake_case, with the fields tickets gained when they started to change.
 */
export const ticketJson = (ticket: TicketFields) => ({
  id: ticket.id,
  title: ticket.title,
  description: ticket.description,
  status: ticket.status,
  priority: ticket.priority,
  equipment_id: ticket.equipmentId,
  assignee_id: ticket.assigneeId,
  created_by: ticket.createdBy,
  created_at: iso(ticket.createdAt),
  updated_at: iso(ticket.updatedAt),
  version: ticket.version,
});
export type TicketJson = ReturnType<typeof ticketJson>;

/** A comment as GET /api/v1/tickets/{id}/comments lists it (camelCase like other records). */
export const commentJson = (comment: {
  id: string;
  ticketId: string;
  authorId: string;
  body: string;
  createdAt: Date | string;
}) => ({
  id: comment.id,
  ticketId: comment.ticketId,
  authorId: comment.authorId,
  body: comment.body,
  createdAt: iso(comment.createdAt),
});
