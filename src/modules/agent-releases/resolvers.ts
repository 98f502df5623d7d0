import { requireApiAccess, requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { ReleaseFilters } from "./service.ts";

export const agentReleaseResolvers = {
  Query: {
    agentReleases(_: unknown, args: ReleaseFilters, ctx: GraphQLContext) {
      requireApiAccess(requirePrincipal(ctx));
      return ctx.services.agentReleases.list(args);
    },
  },
};
