import { Type as t } from "@sinclair/typebox";
import { defineWebhookEvent } from "../../outbox/events.ts";

/**
 * The webhook events of the subscriptions themselves (docs/webhooks.md): sent to the
 * organization's other active subscriptions when the service turns one off after failing.
 */
export const subscriptionEvents = {
  disabled: defineWebhookEvent({
    type: "webhook.disabled",
    readScope: "webhooks:read",
    payload: t.Object({
      webhookId: t.String({ format: "uuid" }),
      url: t.String(),
      reason: t.String(),
      failingSince: t.Union([t.String({ format: "date-time" }), t.Null()]),
    }),
  }),
};
