import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

/** Thin adapter: the caller's principal and the arguments go to the member service. */
export const memberResolvers = {
  Query: {
    users(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.members.list(requirePrincipal(ctx), args);
    },
  },
};
