import type { GraphQLResolveInfo } from "graphql";
import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import { selects } from "../../graphql/selection.ts";
import type { TicketPriority, TicketStatus } from "./queries.ts";
import type { CreateTicketInput } from "./service.ts";

/** Thin adapters: the caller's principal and the arguments go to the ticket service. */
export const ticketResolvers = {
  Query: {
    tickets(
      _: unknown,
      args: PageArgs & { status?: TicketStatus; priority?: TicketPriority },
      ctx: GraphQLContext,
      info: GraphQLResolveInfo,
    ) {
      return ctx.services.tickets.list(requirePrincipal(ctx), args, {
        description: selects(info, ["data", "description"]),
      });
    },
  },
  Mutation: {
    createTicket(_: unknown, { input }: { input: CreateTicketInput }, ctx: GraphQLContext) {
      return ctx.services.tickets.create(requirePrincipal(ctx), input);
    },
  },
};
