import { requireOperator } from "../../auth/guard.ts";
import type { Member } from "../../auth/principal.ts";
import { ApiError } from "../../errors.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { Resolvers } from "../../graphql/schema.ts";
import { keyStatus } from "./service.ts";

/** The member operations need a settings-screen session; an API key may not mint keys. */
function requireMember(ctx: GraphQLContext): Member {
  if (ctx.member) return ctx.member;
  if (ctx.principal || ctx.operator) {
    throw new ApiError(
      "FORBIDDEN",
      "This operation is for a member signed in to the settings screen",
    );
  }
  throw new ApiError("UNAUTHENTICATED", "Sign in to the settings screen");
}

/** Thin adapters: who may call, then the service. */
export const settingsResolvers: Resolvers = {
  Query: {
    myOrganizations(_, __, ctx) {
      return ctx.services.memberKeys.organizations(requireMember(ctx));
    },
    myApiKeys(_, args, ctx) {
      return ctx.services.memberKeys.list(requireMember(ctx), args.organizationId);
    },
    organizations(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.organizations(args);
    },
    organization(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.organization(args.id);
    },
    userAccounts(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.users(args.email);
    },
  },
  Mutation: {
    createMyApiKey(_, args, ctx) {
      return ctx.services.memberKeys.create(requireMember(ctx), args.input);
    },
    /**
     * One mutation, two callers: a member on the settings screen revokes their own key or any
     * where their seat is ADMIN; the operator token revokes any key (schema/operator.graphql).
     */
    revokeApiKey(_, { id }, ctx) {
      if (ctx.member) return ctx.services.memberKeys.revoke(ctx.member, id);
      requireOperator(ctx);
      return ctx.services.apiKeys.revokeApiKey(id);
    },
    createInvitation(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.accounts.createInvitation(args.userId);
    },
    setPassword(_, args, ctx) {
      requireOperator(ctx);
      return ctx.services.accounts.setPassword(args.userId, args.password);
    },
  },
  ApiKey: {
    async owner(key, _, ctx) {
      const owner = key.owner ?? (await ctx.services.operatorReads.userById(key.userId));
      // the foreign key keeps every key's owner; graphql-js's own words if one were gone
      if (!owner) throw new Error("Cannot return null for non-nullable field ApiKey.owner.");
      return owner;
    },
    status(key, _, ctx) {
      return keyStatus(key, ctx.now());
    },
  },
  Organization: {
    members(org, _, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.members(org.id);
    },
    roles(org, _, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.roles(org.id);
    },
    ingestSources(org, _, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.ingestSources(org.id);
    },
    apiKeys(org, _, ctx) {
      requireOperator(ctx);
      return ctx.services.operatorReads.apiKeys(org.id);
    },
  },
  UserAccount: {
    memberships(user, _, ctx) {
      return ctx.services.operatorReads.membershipsOf(user.id);
    },
  },
};
