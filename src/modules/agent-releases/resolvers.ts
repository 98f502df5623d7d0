import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { ReleaseFilters } from "./service.ts";

/** Thin adapters: the caller's principal and the arguments go to the agent release service. */
export const agentReleaseResolvers = {
  Query: {
    agentReleases(_: unknown, args: ReleaseFilters, ctx: GraphQLContext) {
      return ctx.services.agentReleases.list(requirePrincipal(ctx), args);
    },
  },
};
