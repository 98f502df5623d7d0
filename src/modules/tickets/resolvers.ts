import type { GraphQLResolveInfo } from "graphql";
import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import { selects } from "../../graphql/selection.ts";
import { delivered, type LiveMessage } from "../../outbox/live-subscriptions.ts";
import type { UpdateTicketInput } from "./changes.ts";
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
    ticket(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.tickets.get(requirePrincipal(ctx), args.id);
    },
    ticketComments(
      _: unknown,
      args: PageArgs & { ticketId: string; page?: number | null },
      ctx: GraphQLContext,
    ) {
      return ctx.services.tickets.comments(requirePrincipal(ctx), args);
    },
  },
  Subscription: {
    ticketEvents: {
      subscribe: (
        _: unknown,
        args: { ticketId?: string | null; types?: string[] | null },
        ctx: GraphQLContext,
      ) => ctx.services.tickets.events(requirePrincipal(ctx), args),
      // an event, or the refusal that ends the stream after an auth change (sent as its error)
      resolve: (message: LiveMessage) => {
        const event = delivered(message);
        return { ...event, ticket: event.record };
      },
    },
  },
  Mutation: {
    createTicket(_: unknown, { input }: { input: CreateTicketInput }, ctx: GraphQLContext) {
      return ctx.services.tickets.create(requirePrincipal(ctx), input);
    },
    updateTicket(
      _: unknown,
      args: { id: string; input: UpdateTicketInput; expectedVersion?: number | null },
      ctx: GraphQLContext,
    ) {
      return ctx.services.tickets.update(requirePrincipal(ctx), args);
    },
    addTicketComment(_: unknown, args: { ticketId: string; body: string }, ctx: GraphQLContext) {
      return ctx.services.tickets.addComment(requirePrincipal(ctx), args);
    },
  },
};
