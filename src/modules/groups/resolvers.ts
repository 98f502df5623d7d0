import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapter: the caller's principal and the arguments go to the group service. */
export const groupResolvers: Resolvers = {
  Query: {
    groups(_, args, ctx) {
      return ctx.services.groups.list(requirePrincipal(ctx), args);
    },
  },
};
