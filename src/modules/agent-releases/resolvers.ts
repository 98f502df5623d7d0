import { requireApiAccess } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { ReleaseFilters } from "./service.ts";

export const agentReleaseResolvers = {
  Query: {
    agentReleases(_: unknown, args: ReleaseFilters, ctx: GraphQLContext) {
      requireApiAccess(ctx);
      return ctx.services.agentReleases.list(args);
    },
  },
};
