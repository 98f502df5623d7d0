import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";
import { selects } from "../../graphql/selection.ts";
import { delivered, type LiveMessage } from "../../outbox/live-subscriptions.ts";

/** Ticket fields a list reads only when asked for (tickets/page-queries.ts, TicketColumns) */
const HISTORY_FIELDS = ["assigneeId", "updatedAt", "version"];

/** Thin adapters: the caller's principal and the arguments go to the ticket service. */
export const ticketResolvers: Resolvers = {
  Query: {
    tickets(_, args, ctx, info) {
      return ctx.services.tickets.list(requirePrincipal(ctx), args, {
        description: selects(info, ["data", "description"]),
        history: HISTORY_FIELDS.some((field) => selects(info, ["data", field])),
      });
    },
    ticket(_, args, ctx) {
      return ctx.services.tickets.get(requirePrincipal(ctx), args.id);
    },
    ticketComments(_, args, ctx) {
      return ctx.services.tickets.comments(requirePrincipal(ctx), args);
    },
  },
  Subscription: {
    ticketEvents: {
      subscribe: (_, args, ctx) => ctx.services.tickets.events(requirePrincipal(ctx), args),
      // an event, or the refusal that ends the stream after an auth change (sent as its error)
      resolve: (message: LiveMessage) => {
        const event = delivered(message);
        return { ...event, ticket: event.record };
      },
    },
  },
  Mutation: {
    createTicket(_, { input }, ctx) {
      return ctx.services.tickets.create(requirePrincipal(ctx), input);
    },
    updateTicket(_, args, ctx) {
      return ctx.services.tickets.update(requirePrincipal(ctx), args);
    },
    addTicketComment(_, args, ctx) {
      return ctx.services.tickets.addComment(requirePrincipal(ctx), args);
    },
  },
};
