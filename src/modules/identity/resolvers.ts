import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import { identityService } from "./service.ts";

/** Thin adapters: the caller's principal goes to the identity service. */
export const identityResolvers = {
  Query: {
    whoami(_: unknown, __: unknown, ctx: GraphQLContext) {
      return identityService.whoami(requirePrincipal(ctx));
    },
    health(_: unknown, __: unknown, ctx: GraphQLContext) {
      return identityService.health(requirePrincipal(ctx));
    },
  },
};
