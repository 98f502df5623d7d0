import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapters: the caller's principal and the arguments go to the agent release service. */
export const agentReleaseResolvers: Resolvers = {
  Query: {
    agentReleases(_, args, ctx) {
      return ctx.services.agentReleases.list(requirePrincipal(ctx), args);
    },
  },
};
