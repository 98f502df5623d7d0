import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import { delivered, type LiveMessage } from "../../outbox/live-subscriptions.ts";
import type { AlertMove } from "./moves.ts";
import type { AlertFilters } from "./service.ts";

type MoveArgs = { id: string; note?: string | null; expectedVersion?: number | null };
const move = (name: AlertMove) => (_: unknown, args: MoveArgs, ctx: GraphQLContext) =>
  ctx.services.alerts.move(requirePrincipal(ctx), { ...args, move: name });

// Ingest is not here on purpose: it has no key, and /graphql answers 401 without one. The
// REST route calls AlertService.ingest directly (see rest.ts).
export const alertResolvers = {
  Query: {
    alerts(_: unknown, args: AlertFilters, ctx: GraphQLContext) {
      return ctx.services.alerts.list(requirePrincipal(ctx), args);
    },
    alert(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.alerts.get(requirePrincipal(ctx), args.id);
    },
  },
  Subscription: {
    alertEvents: {
      subscribe: (
        _: unknown,
        args: { alertId?: string | null; types?: string[] | null },
        ctx: GraphQLContext,
      ) => ctx.services.alerts.events(requirePrincipal(ctx), args),
      // an event, or the refusal that ends the stream after an auth change (sent as its error)
      resolve: (message: LiveMessage) => {
        const event = delivered(message);
        return { ...event, alert: event.record };
      },
    },
  },
  Mutation: {
    acknowledgeAlert: move("acknowledge"),
    resolveAlert: move("resolve"),
    reopenAlert: move("reopen"),
  },
};
