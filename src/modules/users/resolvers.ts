import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapter: the caller's principal and the arguments go to the member service. */
export const memberResolvers: Resolvers = {
  Query: {
    users(_, args, ctx) {
      return ctx.services.members.list(requirePrincipal(ctx), args);
    },
  },
};
