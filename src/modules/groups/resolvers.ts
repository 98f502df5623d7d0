import { requireApiAccess, requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

export const groupResolvers = {
  Query: {
    groups(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.groups.list(requireApiAccess(requirePrincipal(ctx)), args);
    },
  },
};
