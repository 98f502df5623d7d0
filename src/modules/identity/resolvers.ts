import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";
import { identityService } from "./service.ts";

/** Thin adapters: the caller's principal goes to the identity service. */
export const identityResolvers: Resolvers = {
  Query: {
    whoami(_, __, ctx) {
      return identityService.whoami(requirePrincipal(ctx));
    },
    health(_, __, ctx) {
      return identityService.health(requirePrincipal(ctx));
    },
  },
};
