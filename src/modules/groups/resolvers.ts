import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

/** Thin adapter: the caller's principal and the arguments go to the group service. */
export const groupResolvers = {
  Query: {
    groups(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.groups.list(requirePrincipal(ctx), args);
    },
  },
};
