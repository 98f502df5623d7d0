import { requireApiAccess } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { PageArgs } from "../shared/page.ts";

export const unitResolvers = {
  Query: {
    equipmentUnits(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.units.list(requireApiAccess(ctx), args);
    },
  },
};
