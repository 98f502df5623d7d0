import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { AlertFilters } from "./service.ts";

// Ingest is not here on purpose: it has no key, and /graphql answers 401 without one. The
// REST route calls AlertService.ingest directly (see rest.ts).
export const alertResolvers = {
  Query: {
    alerts(_: unknown, args: AlertFilters, ctx: GraphQLContext) {
      return ctx.services.alerts.list(requirePrincipal(ctx), args);
    },
  },
};
