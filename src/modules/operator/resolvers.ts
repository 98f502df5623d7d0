import { requireOperator } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapters: authorize the operator, then call the service. */
export const operatorResolvers: Resolvers = {
  Mutation: {
    createOrganization(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.createOrganization(input);
    },
    updateOrganization(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.updateOrganization(args.id, args.input);
    },
    createUser(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.createUser(input);
    },
    addMember(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.addMember(input);
    },
    removeMember(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.removeMember(args.organizationId, args.userId);
    },
    createRole(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.createRole(input);
    },
    createApiKey(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.apiKeys.createApiKey(input);
    },
    addIngestSource(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.addIngestSource(input);
    },
    createAgentRelease(_, { input }, ctx) {
      requireOperator(ctx);
      return ctx.services.operator.createAgentRelease(input);
    },
  },
};
