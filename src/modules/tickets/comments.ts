import { requireApiAccess, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { PAGE_LIMIT, type PageArgs, pageWindow } from "../../db/paging.ts";
import { recordChange } from "../../outbox/changes.ts";
import { Problems } from "../../validation.ts";
import { visibleTicket } from "./changes.ts";
import { insertComment, listComments } from "./comment-queries.ts";
import { ticketEvents } from "./events.ts";
import { commentJson, ticketJson } from "./json.ts";

export const COMMENT_LENGTH = { min: 1, max: 10_000 } as const;

/** A ticket's comments, newest first (docs/decisions.md §17.5): whoever sees the ticket reads them. */
export async function ticketComments(
  database: Database,
  principal: Principal,
  args: PageArgs & { ticketId: string; page?: number | null },
) {
  requireApiAccess(principal);
  requireScope(principal, "tickets:read");
  const { page, ...rest } = args;
  if (page != null) {
    new Problems()
      .check(Number.isInteger(page) && page >= 1, ["page"], "Must be an integer ≥ 1")
      .check(rest.offset == null, ["offset"], "Give offset or page, not both")
      .check(rest.after == null, ["after"], "Give either after or page, not both")
      .throwIfAny();
  }
  const limit = rest.limit ?? PAGE_LIMIT.default;
  const window = pageWindow(page == null ? rest : { limit, offset: (page - 1) * limit });
  const ticket = await visibleTicket(database.db, principal, args.ticketId);
  return listComments(database.db, principal.organization.id, ticket.id, window);
}

/** Adds a comment to a visible ticket and records ticket.commented in the same transaction. */
export async function addTicketComment(
  database: Database,
  now: () => Date,
  principal: Principal,
  args: { ticketId: string; body: string },
) {
  requireApiAccess(principal);
  requireScope(principal, "tickets:write");
  new Problems()
    .length(args.body, ["body"], COMMENT_LENGTH.min, COMMENT_LENGTH.max)
    .check(args.body.trim().length > 0 || args.body.length === 0, ["body"], "Must not be blank")
    .throwIfAny();
  const ticket = await visibleTicket(database.db, principal, args.ticketId);
  const organizationId = principal.organization.id;
  const at = now();
  return database.db.transaction(async (tx) => {
    const comment = await insertComment(tx, {
      organizationId,
      ticketId: ticket.id,
      authorId: principal.user.id,
      body: args.body,
      createdAt: at,
    });
    await recordChange(tx, {
      organizationId,
      event: ticketEvents.commented,
      data: { ticket: ticketJson(ticket), comment: commentJson(comment) },
      now: at,
      live: { resource: "ticket", record: ticket, comment },
    });
    return comment;
  });
}
