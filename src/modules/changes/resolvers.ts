import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapters: the caller's principal and the arguments go to the change service. */
export const changeResolvers: Resolvers = {
  Query: {
    changes(_, args, ctx) {
      return ctx.services.changes.list(requirePrincipal(ctx), args);
    },
  },
  ChangeRecord: {
    __resolveType: (record) => record.__typename,
  },
};
