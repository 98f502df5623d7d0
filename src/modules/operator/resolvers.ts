import { requireOperator } from "../../auth/guard.ts";
import type { Plan, Seat } from "../../auth/permissions.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { CreateApiKeyInput } from "./api-keys.ts";

type Args<T> = { input: T };

/** Thin adapters: authorize the operator, then call the service. */
export const operatorResolvers = {
  Mutation: {
    createOrganization(
      _: unknown,
      { input }: Args<{ name: string; plan?: Plan; dailyQuota?: number | null }>,
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.createOrganization(input);
    },
    updateOrganization(
      _: unknown,
      args: {
        id: string;
        input: { name?: string; plan?: Plan; dailyQuota?: number | null; unlimitedQuota?: boolean };
      },
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.updateOrganization(args.id, args.input);
    },
    createUser(
      _: unknown,
      { input }: Args<{ email: string; firstName: string; lastName: string }>,
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.createUser(input);
    },
    addMember(
      _: unknown,
      { input }: Args<{ organizationId: string; userId: string; role: string }>,
      ctx: GraphQLContext,
    ) {
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
    createRole(
      _: unknown,
      { input }: Args<{ organizationId: string; name: string; seat: Seat; permissions: string[] }>,
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.createRole(input);
    },
    createApiKey(_: unknown, { input }: Args<CreateApiKeyInput>, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.apiKeys.createApiKey(input);
    },
    revokeApiKey(_: unknown, { id }: { id: string }, ctx: GraphQLContext) {
      // a member on the settings screen: their own key, or any where their seat is ADMIN
      if (ctx.member) return ctx.services.memberKeys.revoke(ctx.member, id);
      requireOperator(ctx);
      return ctx.services.apiKeys.revokeApiKey(id);
    },
    addIngestSource(
      _: unknown,
      { input }: Args<{ organizationId: string; cidr: string; label?: string | null }>,
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.addIngestSource(input);
    },
    createAgentRelease(
      _: unknown,
      {
        input,
      }: Args<{
        version: string;
        platform: string;
        architecture: string;
        channel: string;
        downloadUrl: string;
        sha256: string;
      }>,
      ctx: GraphQLContext,
    ) {
      requireOperator(ctx);
      return ctx.services.operator.createAgentRelease(input);
    },
  },
};
