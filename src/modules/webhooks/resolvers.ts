import { requirePrincipal } from "../../auth/guard.ts";
import type { GraphQLContext } from "../../graphql/context.ts";
import type { WebhookInput } from "./service.ts";

type PageArgs = { page?: number; limit?: number };

/** Thin adapters: the caller's principal and the arguments go to the webhook service. */
export const webhookResolvers = {
  Query: {
    webhooks(_: unknown, args: PageArgs, ctx: GraphQLContext) {
      return ctx.services.webhooks.list(requirePrincipal(ctx), args);
    },
    webhook(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.webhooks.get(requirePrincipal(ctx), args.id);
    },
    webhookDeliveries(_: unknown, args: PageArgs & { id: string }, ctx: GraphQLContext) {
      return ctx.services.webhooks.deliveries(requirePrincipal(ctx), args.id, args);
    },
  },
  Mutation: {
    createWebhook(_: unknown, args: { input: WebhookInput }, ctx: GraphQLContext) {
      return ctx.services.webhooks.create(requirePrincipal(ctx), args.input);
    },
    updateWebhook(_: unknown, args: { id: string; input: WebhookInput }, ctx: GraphQLContext) {
      return ctx.services.webhooks.update(requirePrincipal(ctx), args.id, args.input);
    },
    deleteWebhook(_: unknown, args: { id: string }, ctx: GraphQLContext) {
      return ctx.services.webhooks.delete(requirePrincipal(ctx), args.id);
    },
    rotateWebhookSecret(
      _: unknown,
      args: { id: string; gracePeriodHours?: number | null },
      ctx: GraphQLContext,
    ) {
      return ctx.services.webhooks.rotateSecret(
        requirePrincipal(ctx),
        args.id,
        args.gracePeriodHours,
      );
    },
    retryWebhookDelivery(
      _: unknown,
      args: { id: string; deliveryId: string },
      ctx: GraphQLContext,
    ) {
      return ctx.services.webhooks.retryDelivery(requirePrincipal(ctx), args.id, args.deliveryId);
    },
  },
};
