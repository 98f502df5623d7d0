import { requirePrincipal } from "../../auth/guard.ts";
import { ApiError } from "../../errors.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { AuditLogArgs } from "./filters.ts";

export const auditResolvers = {
  Query: {
    auditLog(_: unknown, args: AuditLogArgs, ctx: GraphQLContext) {
      return ctx.services.audit.list(requirePrincipal(ctx), args);
    },
    myApiKeyUsage(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      if (!ctx.member) {
        throw ctx.principal || ctx.operator
          ? new ApiError(
              "FORBIDDEN",
              "This operation is for a member signed in to the settings screen",
            )
          : new ApiError("UNAUTHENTICATED", "Sign in to the settings screen");
      }
      return ctx.services.audit.keyUsageForMember(ctx.member, args.id);
    },
  },
};
