import { Type as t } from "@sinclair/typebox";
import { defineWebhookEvent } from "../../outbox/events.ts";

/** The alert as `GET /api/v1/alerts/{id}` answers it (its OpenAPI component; docs/webhooks.md). */
const AlertEventData = t.Object(
  {
    alert: t.Unsafe<Record<string, unknown>>({
      $ref: "#/components/schemas/AlertRecord",
      description: "the alert, as GET answers it",
    }),
  },
  { title: "AlertEventData" },
);

const event = (type: string) =>
  defineWebhookEvent({ type, readScope: "alerts:read", payload: AlertEventData });

/** The webhook events the alerts feature emits (docs/webhooks.md). */
export const alertEvents = {
  /** once per new alert of an ingest, never for a duplicate */
  created: event("alert.created"),
  acknowledged: event("alert.acknowledged"),
  resolved: event("alert.resolved"),
  reopened: event("alert.reopened"),
};
