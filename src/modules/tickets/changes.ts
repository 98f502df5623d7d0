import { hasPermission, requireApiAccess, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { forbidden, invalidTransition, notFound, versionMismatch } from "../../errors.ts";
import type { UpdateTicketInput } from "../../generated/schema.ts";
import { recordChange } from "../../outbox/changes.ts";
import { isUuid, Problems } from "../../validation.ts";
import { ticketEvents } from "./events.ts";
import { ticketJson } from "./json.ts";
import {
  findTicket,
  isAssignableMember,
  type TicketRow,
  type TicketStatus,
  updateTicketRow,
} from "./queries.ts";

export const TITLE_LENGTH = { min: 5, max: 200 } as const;
export const DESCRIPTION_LENGTH = { min: 10, max: 5000 } as const;

/** The status moves of a ticket (docs/api.md); closed is final. */
export const TICKET_MOVES: Record<TicketStatus, readonly TicketStatus[]> = {
  open: ["in_progress", "resolved", "closed"],
  in_progress: ["open", "resolved", "closed"],
  resolved: ["in_progress", "closed"],
  closed: [],
};

const FIELDS = ["title", "description", "priority", "status", "assigneeId"] as const;
/** the field names of the REST answer and of `changes` in ticket.updated */
const JSON_NAME: Record<(typeof FIELDS)[number], string> = {
  title: "title",
  description: "description",
  priority: "priority",
  status: "status",
  assigneeId: "assignee_id",
};

export const ticketNotFound = () => notFound("Ticket not found");

/** Whether the principal may see this ticket: their organization's, and theirs without view_all. */
export const canSee = (principal: Principal, row: TicketRow | undefined): row is TicketRow =>
  row !== undefined &&
  (hasPermission(principal, "tickets.view_all") || row.createdBy === principal.user.id);

/** One visible ticket, or NOT_FOUND (malformed ids and other organizations' alike). */
export async function visibleTicket(db: Database["db"], principal: Principal, id: string) {
  const row = isUuid(id) ? await findTicket(db, principal.organization.id, id) : undefined;
  if (!canSee(principal, row)) throw ticketNotFound();
  return row;
}

/**
 * Changes a ticket (docs/decisions.md §17.1, §17.2, §17.6): input checked first, then in one
 * transaction the row is locked, the version, permission and status move are checked against
 * it, the conditional update made and ticket.updated recorded with the changed fields.
 */
export async function updateTicket(
  database: Database,
  now: () => Date,
  principal: Principal,
  args: { id: string; input: UpdateTicketInput; expectedVersion?: number | null },
) {
  requireApiAccess(principal);
  requireScope(principal, "tickets:write");
  const { input } = args;
  const problems = new Problems();
  const given = FIELDS.filter((field) => input[field] !== undefined);
  problems.check(given.length > 0, ["input"], `Give at least one of ${FIELDS.join(", ")}`);
  for (const field of ["title", "description", "priority", "status"] as const) {
    if (input[field] === null) problems.add(["input", field], "Must not be null");
  }
  if (typeof input.title === "string") {
    problems.length(input.title, ["input", "title"], TITLE_LENGTH.min, TITLE_LENGTH.max);
  }
  if (typeof input.description === "string") {
    const { min, max } = DESCRIPTION_LENGTH;
    problems.length(input.description, ["input", "description"], min, max);
  }
  const manage = hasPermission(principal, "tickets.manage");
  const organizationId = principal.organization.id;
  const assigneeId = input.assigneeId;
  if (typeof assigneeId === "string" && manage) {
    const ok =
      isUuid(assigneeId) && (await isAssignableMember(database.db, organizationId, assigneeId));
    problems.check(
      ok,
      ["input", "assigneeId"],
      "Must be a member of your organization with an administrator or technician seat",
    );
  }
  problems.throwIfAny();
  if (
    !manage &&
    (assigneeId !== undefined || (input.status != null && input.status !== "closed"))
  ) {
    throw forbidden("Missing permission: tickets.manage");
  }
  if (!isUuid(args.id)) throw ticketNotFound();
  return database.db.transaction(async (tx) => {
    const row = await findTicket(tx, organizationId, args.id, true);
    if (!canSee(principal, row)) throw ticketNotFound();
    if (!manage && row.createdBy !== principal.user.id) {
      throw forbidden("Missing permission: tickets.manage");
    }
    if (args.expectedVersion != null && args.expectedVersion !== row.version)
      throw versionMismatch();
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const values: Partial<TicketRow> = {};
    for (const field of given) {
      const to = input[field] ?? null;
      if (to === row[field]) continue;
      changes[JSON_NAME[field]] = { from: row[field], to };
      Object.assign(values, { [field]: to });
    }
    if (
      values.status !== undefined &&
      !TICKET_MOVES[row.status].includes(values.status as TicketStatus)
    ) {
      throw invalidTransition(row.status, values.status as string);
    }
    if (Object.keys(changes).length === 0) return row;
    const at = now();
    const updated = await updateTicketRow(tx, organizationId, row.id, row.version, {
      ...values,
      updatedAt: at,
    });
    if (!updated) throw versionMismatch();
    await recordChange(tx, {
      organizationId,
      event: ticketEvents.updated,
      data: { ticket: ticketJson(updated) },
      changes,
      now: at,
      live: { resource: "ticket", record: updated },
    });
    return updated;
  });
}
