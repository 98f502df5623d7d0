import { requirePrincipal } from "../../auth/guard.ts";
import { ApiError } from "../../errors.ts";
import type { Resolvers } from "../../graphql/schema.ts";

export const auditResolvers: Resolvers = {
  Query: {
    auditLog(_, args, ctx) {
      return ctx.services.audit.list(requirePrincipal(ctx), args);
    },
    myApiKeyUsage(_, args, ctx) {
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
