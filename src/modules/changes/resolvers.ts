import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { ChangeArgs } from "./service.ts";

/** Thin adapters: the caller's principal and the arguments go to the change service. */
export const changeResolvers = {
  Query: {
    changes(_: unknown, args: ChangeArgs, ctx: GraphQLContext) {
      return ctx.services.changes.list(requirePrincipal(ctx), args);
    },
  },
  ChangeRecord: {
    __resolveType: (record: { __typename: string }) => record.__typename,
  },
};
