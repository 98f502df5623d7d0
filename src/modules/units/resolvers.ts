import { requireApiAccess, requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

export const unitResolvers = {
  Query: {
    equipmentUnits(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.units.list(requireApiAccess(requirePrincipal(ctx)), args);
    },
  },
};
