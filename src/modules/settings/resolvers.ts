import { requireOperator } from "../../auth/guard.ts";
import type { Member } from "../../auth/principal.ts";
import { ApiError } from "../../errors.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { KeyExpiration } from "../operator/api-keys.ts";
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

type KeyRow = {
  userId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rotatedAt?: Date | null;
  owner?: unknown;
};
type OrgRow = { id: string };

/** Thin adapters: who may call, then the service. */
export const settingsResolvers = {
  Query: {
    myOrganizations(_: unknown, __: unknown, ctx: GraphQLContext) {
      return ctx.services.memberKeys.organizations(requireMember(ctx));
    },
    myApiKeys(_: unknown, args: { organizationId: string }, ctx: GraphQLContext) {
      return ctx.services.memberKeys.list(requireMember(ctx), args.organizationId);
    },
    organizations(_: unknown, args: { page?: number; limit?: number }, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.organizations(args);
    },
    organization(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.organization(args.id);
    },
    userAccounts(_: unknown, args: { email?: string | null }, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.users(args.email);
    },
  },
  Mutation: {
    createMyApiKey(
      _: unknown,
      args: {
        input: { organizationId: string; name: string; scopes: string[]; expiresIn: KeyExpiration };
      },
      ctx: GraphQLContext,
    ) {
      return ctx.services.memberKeys.create(requireMember(ctx), args.input);
    },
    /**
     * One mutation, two callers: a member on the settings screen revokes their own key or any
     * where their seat is ADMIN; the operator token revokes any key (schema/operator.graphql).
     */
    revokeApiKey(_: unknown, { id }: { id: string }, ctx: GraphQLContext) {
      if (ctx.member) return ctx.services.memberKeys.revoke(ctx.member, id);
      requireOperator(ctx);
      return ctx.services.apiKeys.revokeApiKey(id);
    },
    createInvitation(_: unknown, args: { userId: string }, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.accounts.createInvitation(args.userId);
    },
    setPassword(_: unknown, args: { userId: string; password: string }, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.accounts.setPassword(args.userId, args.password);
    },
  },
  ApiKey: {
    owner(key: KeyRow, _: unknown, ctx: GraphQLContext) {
      return key.owner ?? ctx.services.operatorReads.userById(key.userId);
    },
    status(key: KeyRow, _: unknown, ctx: GraphQLContext) {
      return keyStatus(key, ctx.now());
    },
  },
  Organization: {
    members(org: OrgRow, _: unknown, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.members(org.id);
    },
    roles(org: OrgRow, _: unknown, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.roles(org.id);
    },
    ingestSources(org: OrgRow, _: unknown, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.ingestSources(org.id);
    },
    apiKeys(org: OrgRow, _: unknown, ctx: GraphQLContext) {
      requireOperator(ctx);
      return ctx.services.operatorReads.apiKeys(org.id);
    },
  },
  UserAccount: {
    memberships(user: { id: string }, _: unknown, ctx: GraphQLContext) {
      return ctx.services.operatorReads.membershipsOf(user.id);
    },
  },
};
