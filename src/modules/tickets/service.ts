import { hasPermission, requireApiAccess, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { ticketPriorityEnum, ticketStatusEnum } from "../../db/schema/index.ts";
import { isUuid, Problems } from "../../validation.ts";
import {
  equipmentExists,
  insertTicket,
  listTickets,
  type TicketPriority,
  type TicketStatus,
} from "./queries.ts";

/** the SDL's enums, through the Postgres enums derived from them (db/schema/enums.ts) */
export const TICKET_PRIORITIES = ticketPriorityEnum.enumValues;
export const TICKET_STATUSES = ticketStatusEnum.enumValues;
export const TITLE_LENGTH = { min: 5, max: 200 } as const;
export const DESCRIPTION_LENGTH = { min: 10, max: 5000 } as const;

export interface CreateTicketInput {
  title: string;
  description: string;
  priority?: TicketPriority | null;
  equipmentId?: string | null;
}

/** Ticket rules (docs/decisions.md §4 and §6), shared by REST and GraphQL through the resolvers. */
export class TicketService {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
  ) {}

  list(
    principal: Principal,
    args: PageArgs & { status?: TicketStatus | null; priority?: TicketPriority | null },
    /** whether the answer shows each ticket's description (read only then) */
    options: { description?: boolean } = {},
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
    return insertTicket(this.database.db, {
      organizationId: principal.organization.id,
      title: input.title,
      description: input.description,
      priority: input.priority ?? "medium",
      status: "open",
      equipmentId,
      createdBy: principal.user.id,
      createdAt: this.now(),
    });
  }
}
