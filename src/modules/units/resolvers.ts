import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapter: the caller's principal and the arguments go to the unit service. */
export const unitResolvers: Resolvers = {
  Query: {
    equipmentUnits(_, args, ctx) {
      return ctx.services.units.list(requirePrincipal(ctx), args);
    },
  },
};
