import { requireApiAccess, requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

export const memberResolvers = {
  Query: {
    users(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.members.list(requireApiAccess(requirePrincipal(ctx)), args);
    },
  },
};
