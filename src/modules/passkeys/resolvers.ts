import { requireOperator } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";

/** Thin adapters: the operator's view of members' passkeys. */
export const passkeyResolvers = {
  OrganizationMember: {
    passkeys(member: { user: { id: string } }, _: unknown, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.passkeys.count(member.user.id);
    },
  },
};
