import { t } from "elysia";
import { authErrorResponses, ErrorSchema } from "../../http/error-schemas.ts";
import { ResponseInt } from "../../http/list-schemas.ts";
import { WEBHOOK_LIMITS } from "./service.ts";

/** Typebox models of the webhook routes: request validation and the OpenAPI document. */

const Timestamp = t.String({ format: "date-time" });
const NullableTimestamp = t.Nullable(Timestamp);
/** The `events` field, documented with the event types the features declare. */
export const eventsField = (eventTypes: readonly string[]) =>
  t.Array(t.String(), { description: `one or more of ${eventTypes.join(", ")}` });

export const Webhook = t.Object(
  {
    id: t.String({ format: "uuid" }),
    url: t.String(),
    events: t.Array(t.String()),
    active: t.Boolean(),
    disabledReason: t.Nullable(
      t.String({ description: "why the service disabled it (410 Gone, failing for 5 days)" }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "Webhook" },
);
export const CreatedWebhook = t.Object(
  {
    id: t.String({ format: "uuid" }),
    url: t.String(),
    events: t.Array(t.String()),
    active: t.Boolean(),
    createdAt: Timestamp,
    secret: t.String({ description: "whsec_… signing secret; shown only in this answer" }),
  },
  { title: "CreatedWebhook" },
);
export const RotatedSecret = t.Object(
  {
    id: t.String({ format: "uuid" }),
    secret: t.String({ description: "the new whsec_… signing secret; shown only in this answer" }),
    previousSecretExpiresAt: t.Union([Timestamp, t.Null()], {
      description: "until then deliveries are signed with the previous secret too; null: none",
    }),
  },
  { title: "RotatedWebhookSecret" },
);
const Pagination = t.Object(
  { page: ResponseInt(), limit: ResponseInt(), total: ResponseInt() },
  { title: "PagePagination" },
);
export const WebhookList = t.Object(
  { data: t.Array(Webhook, { description: "newest first" }), pagination: Pagination },
  { title: "WebhookList" },
);
export const Delivery = t.Object(
  {
    id: t.String({ format: "uuid" }),
    messageId: t.String({
      description: "the message's `webhook-id` header: the same on every retry, dedupe on it",
    }),
    webhookId: t.String({
      deprecated: true,
      description:
        "Deprecated alias of messageId (the `webhook-id` header value, not the subscription)",
    }),
    subscriptionId: t.String({
      format: "uuid",
      description: "the subscription (the `:id` of /api/webhooks/:id)",
    }),
    eventId: t.String({ format: "uuid" }),
    eventType: t.String(),
    status: t.UnionEnum(["pending", "sending", "delivered", "failed"]),
    attempts: ResponseInt(),
    lastStatusCode: t.Nullable(ResponseInt()),
    lastError: t.Nullable(t.String()),
    lastAttemptAt: NullableTimestamp,
    nextAttemptAt: t.Nullable(Timestamp, { description: "null unless pending" }),
    deliveredAt: NullableTimestamp,
    createdAt: Timestamp,
  },
  { title: "WebhookDelivery" },
);
export const DeliveryList = t.Object(
  { data: t.Array(Delivery, { description: "newest first" }), pagination: Pagination },
  { title: "WebhookDeliveryList" },
);
export const Deleted = t.Object(
  { success: t.Boolean(), message: t.String({ examples: ["Webhook deleted"] }) },
  { title: "WebhookDeleted" },
);

const { page: P, limit: L } = WEBHOOK_LIMITS;
/**
 * Only the type is checked here; the range is checked by the domain (`pageNumberWindow`), since
 * Elysia's number coercion names a range error's field `property` instead of `page` / `limit`.
 */
export const PageQuery = t.Object({
  page: t.Optional(
    t.Integer({ error: "Must be an integer", description: `${P.min} or more; default 1` }),
  ),
  limit: t.Optional(
    t.Integer({ error: "Must be an integer", description: `${L.min} to ${L.max}; default 10` }),
  ),
  after: t.Optional(
    t.String({
      description: 'cursor of the previous page (the Link header\'s rel="next"), instead of page',
    }),
  ),
});
export const IdParams = t.Object({ id: t.String({ description: "webhook id (uuid)" }) });
export const error = (description: string) => t.Composite([ErrorSchema], { description });
export const listErrors = { 400: error("Validation failed, with details"), ...authErrorResponses };
export const errors = {
  ...listErrors,
  404: error("no such webhook in the caller's organization (malformed ids included)"),
};
