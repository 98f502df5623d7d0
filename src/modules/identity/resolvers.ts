import { requireApiAccess, requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

export const identityResolvers = {
  Query: {
    whoami(_: unknown, __: unknown, ctx: GraphQLContext) {
      const principal = requireApiAccess(requirePrincipal(ctx));
      return {
        organization: { id: principal.organization.id, name: principal.organization.name },
        user: principal.user,
        apiKey: {
          name: principal.apiKey.name,
          scopes: principal.apiKey.scopes,
          expiresAt: principal.apiKey.expiresAt,
        },
      };
    },
    health(_: unknown, __: unknown, ctx: GraphQLContext) {
      requireApiAccess(requirePrincipal(ctx));
      return { status: "ok" };
    },
  },
};
