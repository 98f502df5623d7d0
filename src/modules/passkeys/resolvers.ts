import { requireOperator } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapters: the operator's view of members' passkeys. */
export const passkeyResolvers: Resolvers = {
  OrganizationMember: {
    passkeys(member, _, ctx) {
      requireOperator(ctx);
      return ctx.services.passkeys.count(member.user.id);
    },
  },
};
