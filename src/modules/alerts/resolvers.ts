import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";
import { delivered, type LiveMessage } from "../../outbox/live-subscriptions.ts";
import type { AlertMove } from "./moves.ts";

type Move = NonNullable<NonNullable<Resolvers["Mutation"]>["acknowledgeAlert"]>;
const move =
  (name: AlertMove): Move =>
  (_, args, ctx) =>
    ctx.services.alerts.move(requirePrincipal(ctx), { ...args, move: name });

// Ingest is not here on purpose: it has no key, and /graphql answers 401 without one. The
// REST route calls AlertService.ingest directly (see rest.ts).
export const alertResolvers: Resolvers = {
  Query: {
    alerts(_, args, ctx) {
      return ctx.services.alerts.list(requirePrincipal(ctx), args);
    },
    alert(_, args, ctx) {
      return ctx.services.alerts.get(requirePrincipal(ctx), args.id);
    },
  },
  Subscription: {
    alertEvents: {
      subscribe: (_, args, ctx) => ctx.services.alerts.events(requirePrincipal(ctx), args),
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
