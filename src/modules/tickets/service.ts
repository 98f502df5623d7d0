import { hasPermission, requireApiAccess, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { ticketPriorityEnum, ticketStatusEnum } from "../../db/schema/index.ts";
import type { CreateTicketInput, UpdateTicketInput } from "../../generated/schema.ts";
import { recordChange } from "../../outbox/changes.ts";
import type { LiveEvent, LiveHub } from "../../outbox/live.ts";
import { liveFilter } from "../../outbox/live-filters.ts";
import { isUuid, Problems } from "../../validation.ts";
import { DESCRIPTION_LENGTH, TITLE_LENGTH, updateTicket, visibleTicket } from "./changes.ts";
import { addTicketComment, ticketComments } from "./comments.ts";
import { ticketEvents } from "./events.ts";
import { ticketJson } from "./json.ts";
import { listTickets, type TicketColumns } from "./page-queries.ts";
import {
  equipmentExists,
  insertTicket,
  type TicketPriority,
  type TicketStatus,
} from "./queries.ts";

/** the SDL's enums, through the Postgres enums derived from them (db/schema/enums.ts) */
export const TICKET_PRIORITIES = ticketPriorityEnum.enumValues;
export const TICKET_STATUSES = ticketStatusEnum.enumValues;
export { DESCRIPTION_LENGTH, TITLE_LENGTH };

/** Ticket rules (docs/decisions.md §4 and §6), shared by REST and GraphQL through the resolvers. */
export class TicketService {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    private readonly live?: LiveHub,
  ) {}

  list(
    principal: Principal,
    args: PageArgs & { status?: TicketStatus | null; priority?: TicketPriority | null },
    /** which of the costlier columns the answer shows (read only then) */
    options: TicketColumns = {},
  ) {
    requireApiAccess(principal);
    requireScope(principal, "tickets:read");
    const window = pageWindow(args);
    return listTickets(
      this.database.db,
      {
        organizationId: principal.organization.id,
        status: args.status,
        priority: args.priority,
        createdBy: hasPermission(principal, "tickets.view_all") ? undefined : principal.user.id,
      },
      window,
      options,
    );
  }

  /** Any API seat may open a ticket for itself; the scope decides (no role permission needed). */
  async create(principal: Principal, input: CreateTicketInput) {
    requireApiAccess(principal);
    requireScope(principal, "tickets:write");
    const problems = new Problems()
      .length(input.title, ["title"], TITLE_LENGTH.min, TITLE_LENGTH.max)
      .length(input.description, ["description"], DESCRIPTION_LENGTH.min, DESCRIPTION_LENGTH.max);
    const equipmentId = input.equipmentId ?? null;
    if (equipmentId !== null) {
      if (!isUuid(equipmentId)) problems.add(["equipmentId"], "Must be a UUID");
      else if (!(await equipmentExists(this.database.db, principal.organization.id, equipmentId))) {
        problems.add(["equipmentId"], "No equipment with this id in your organization");
      }
    }
    problems.throwIfAny();
    const organizationId = principal.organization.id;
    const at = this.now();
    return this.database.db.transaction(async (tx) => {
      const row = await insertTicket(tx, {
        organizationId,
        title: input.title,
        description: input.description,
        priority: input.priority ?? "medium",
        status: "open",
        equipmentId,
        createdBy: principal.user.id,
        createdAt: at,
        updatedAt: at,
      });
      await recordChange(tx, {
        organizationId,
        event: ticketEvents.created,
        data: { ticket: ticketJson(row) },
        now: at,
        live: { resource: "ticket", record: row },
      });
      return row;
    });
  }

  /** One ticket the caller can see (scope tickets:read); anything else NOT_FOUND. */
  get(principal: Principal, id: string) {
    requireApiAccess(principal);
    requireScope(principal, "tickets:read");
    return visibleTicket(this.database.db, principal, id);
  }

  update(
    principal: Principal,
    args: { id: string; input: UpdateTicketInput; expectedVersion?: number | null },
  ) {
    return updateTicket(this.database, this.now, principal, args);
  }

  /**
   * Live changes of the tickets the caller can see (docs/api.md, subscriptions), by the caller
   * as they are now: a role that loses tickets.view_all narrows the stream at once.
   */
  events(principal: Principal, args: { ticketId?: string | null; types?: string[] | null }) {
    const allowed = (caller: Principal) => {
      requireApiAccess(caller);
      requireScope(caller, "tickets:read");
    };
    allowed(principal);
    const keep = (event: LiveEvent, caller: Principal) => {
      const all = hasPermission(caller, "tickets.view_all");
      const visible = (ticket: Record<string, unknown>) =>
        all || ticket.createdBy === caller.user.id;
      return liveFilter({ id: args.ticketId, types: args.types, visible })(event);
    };
    return this.hub().subscribe("ticket", principal, { allowed, keep });
  }

  private hub(): LiveHub {
    if (!this.live) throw new Error("no live hub");
    return this.live;
  }

  comments(principal: Principal, args: PageArgs & { ticketId: string; page?: number | null }) {
    return ticketComments(this.database, principal, args);
  }

  addComment(principal: Principal, args: { ticketId: string; body: string }) {
    return addTicketComment(this.database, this.now, principal, args);
  }
}
