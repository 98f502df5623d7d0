import { requireApiAccess } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { PageArgs } from "../shared/page.ts";

export const groupResolvers = {
  Query: {
    groups(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.groups.list(requireApiAccess(ctx), args);
    },
  },
};
