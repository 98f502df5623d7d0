import type { GraphQLResolveInfo } from "graphql";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import { selects } from "../../graphql/selection.ts";
import type { TicketPriority, TicketStatus } from "./queries.ts";
import type { CreateTicketInput } from "./service.ts";

export const ticketResolvers = {
  Query: {
    tickets(
      _: unknown,
      args: PageArgs & { status?: TicketStatus; priority?: TicketPriority },
      ctx: GraphQLContext,
      info: GraphQLResolveInfo,
    ) {
      return ctx.services.tickets.list(ctx, args, {
        description: selects(info, ["data", "description"]),
      });
    },
  },
  Mutation: {
    createTicket(_: unknown, { input }: { input: CreateTicketInput }, ctx: GraphQLContext) {
      return ctx.services.tickets.create(ctx, input);
    },
  },
};
