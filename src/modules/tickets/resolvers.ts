import type { GraphQLContext } from "../../graphql/context.ts";
import type { PageArgs } from "../shared/page.ts";
import type { TicketPriority, TicketStatus } from "./queries.ts";
import type { CreateTicketInput } from "./service.ts";

export const ticketResolvers = {
  Query: {
    tickets(
      _: unknown,
      args: PageArgs & { status?: TicketStatus; priority?: TicketPriority },
      ctx: GraphQLContext,
    ) {
      return ctx.services.tickets.list(ctx, args);
    },
  },
  Mutation: {
    createTicket(_: unknown, { input }: { input: CreateTicketInput }, ctx: GraphQLContext) {
      return ctx.services.tickets.create(ctx, input);
    },
  },
};
