import { requireOperator } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { CreateAgentReleaseInput } from "./agent-releases.ts";
import type { CreateApiKeyInput } from "./api-keys.ts";
import type { AddIngestSourceInput } from "./ingest-sources.ts";
import type { AddMemberInput } from "./members.ts";
import type { CreateOrganizationInput, UpdateOrganizationInput } from "./organizations.ts";
import type { CreateRoleInput } from "./roles.ts";
import type { CreateUserInput } from "./users.ts";

type Args<T> = { input: T };

/** Thin adapters: authorize the operator, then call the service. */
export const operatorResolvers = {
  Mutation: {
    createOrganization(_: unknown, { input }: Args<CreateOrganizationInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operator.createOrganization(input);
    },
    updateOrganization(
      _: unknown,
      args: { id: string; input: UpdateOrganizationInput },
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.updateOrganization(args.id, args.input);
    },
    createUser(_: unknown, { input }: Args<CreateUserInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operator.createUser(input);
    },
    addMember(_: unknown, { input }: Args<AddMemberInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operator.addMember(input);
    },
    removeMember(
      _: unknown,
      args: { organizationId: string; userId: string },
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.removeMember(args.organizationId, args.userId);
    },
    createRole(_: unknown, { input }: Args<CreateRoleInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operator.createRole(input);
    },
    createApiKey(_: unknown, { input }: Args<CreateApiKeyInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.apiKeys.createApiKey(input);
    },
    addIngestSource(_: unknown, { input }: Args<AddIngestSourceInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operator.addIngestSource(input);
    },
    createAgentRelease(_: unknown, { input }: Args<CreateAgentReleaseInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operator.createAgentRelease(input);
    },
  },
};
