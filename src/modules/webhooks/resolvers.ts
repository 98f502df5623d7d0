import { requirePrincipal } from "../../auth/guard.ts";
import type { Resolvers } from "../../graphql/schema.ts";

/** Thin adapters: the caller's principal and the arguments go to the webhook service. */
export const webhookResolvers: Resolvers = {
  Query: {
    webhooks(_, args, ctx) {
      return ctx.services.webhooks.list(requirePrincipal(ctx), args);
    },
    webhook(_, args, ctx) {
      return ctx.services.webhooks.get(requirePrincipal(ctx), args.id);
    },
    webhookDeliveries(_, args, ctx) {
      return ctx.services.webhooks.deliveries(requirePrincipal(ctx), args.id, args);
    },
  },
  Mutation: {
    createWebhook(_, args, ctx) {
      return ctx.services.webhooks.create(requirePrincipal(ctx), args.input);
    },
    updateWebhook(_, args, ctx) {
      return ctx.services.webhooks.update(requirePrincipal(ctx), args.id, args.input);
    },
    deleteWebhook(_, args, ctx) {
      return ctx.services.webhooks.delete(requirePrincipal(ctx), args.id);
    },
    rotateWebhookSecret(_, args, ctx) {
      return ctx.services.webhooks.rotateSecret(
        requirePrincipal(ctx),
        args.id,
        args.gracePeriodHours,
      );
    },
    retryWebhookDelivery(_, args, ctx) {
      return ctx.services.webhooks.retryDelivery(requirePrincipal(ctx), args.id, args.deliveryId);
    },
  },
};
