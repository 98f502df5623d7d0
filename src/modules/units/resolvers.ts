import { requirePrincipal } from "../../auth/guard.ts";
import type { PageArgs } from "../../db/paging.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

/** Thin adapter: the caller's principal and the arguments go to the unit service. */
export const unitResolvers = {
  Query: {
    equipmentUnits(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.units.list(requirePrincipal(ctx), args);
    },
  },
};
