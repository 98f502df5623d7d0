import { requireApiAccess } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { PageArgs } from "../shared/page.ts";

export const memberResolvers = {
  Query: {
    users(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.members.list(requireApiAccess(ctx), args);
    },
  },
};
