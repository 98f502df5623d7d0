import { defineFeature } from "../feature.ts";
import { subscriptionEvents } from "./events.ts";
import { webhookResolvers } from "./resolvers.ts";
import { webhookRoutes } from "./rest.ts";
import { WebhookService } from "./service.ts";

declare module "../../services.ts" {
  interface DomainServices {
    webhooks: WebhookService;
  }
}

/** The webhooks feature: webhook subscriptions and their delivery log. */
export const webhooks = defineFeature({
  name: "webhooks",
  routes: ({ auth, idempotency, eventTypes, infra }) => [
    webhookRoutes({ auth, idempotency, eventTypes, publicBaseUrl: infra.config.publicBaseUrl }),
  ],
  resolvers: webhookResolvers,
  services: {
    webhooks: ({ database, now, config, resolveHost, webhookSecrets }, { events }) =>
      new WebhookService(
        database,
        now,
        events,
        config.allowPrivateWebhookUrls,
        resolveHost,
        webhookSecrets,
      ),
  },
  events: Object.values(subscriptionEvents),
  openapi: {
    operationIds: {
      "GET /api/webhooks": "listWebhooks",
      "POST /api/webhooks": "createWebhook",
      "GET /api/webhooks/{id}": "getWebhook",
      "PATCH /api/webhooks/{id}": "updateWebhook",
      "DELETE /api/webhooks/{id}": "deleteWebhook",
      "GET /api/webhooks/{id}/deliveries": "listWebhookDeliveries",
      "POST /api/webhooks/{id}/deliveries/{deliveryId}/retry": "retryWebhookDelivery",
      "POST /api/webhooks/{id}/rotate-secret": "rotateWebhookSecret",
    },
    tags: {
      webhooks: "Interface B: webhook subscriptions and their delivery log",
    },
  },
});
