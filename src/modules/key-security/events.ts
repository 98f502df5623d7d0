import { Type as t } from "@sinclair/typebox";
import type { apiKeys } from "../../db/schema/index.ts";
import { defineWebhookEvent } from "../../outbox/events.ts";

type KeyRow = typeof apiKeys.$inferSelect;

/** On the wire an RFC 3339 string; in process the row's Date, which JSON turns into one. */
const Timestamp = t.Unsafe<Date | string>(t.String({ format: "date-time" }));

/** What an `api_key.*` event says of a key (docs/webhooks.md): never its hash or secret. */
const EventKey = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    prefix: t.String(),
    userId: t.String({ format: "uuid" }),
    scopes: t.Array(t.String()),
    expiresAt: t.Union([Timestamp, t.Null()]),
  },
  { title: "ApiKeyEventKey" },
);

export function keyPayload(key: KeyRow) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    userId: key.userId,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
  };
}

/** `api_key.expiring` carries how many days are left at its warning point. */
export const DAYS_LEFT: Record<string, 30 | 7 | 1> = { "30d": 30, "7d": 7, "1d": 1 };

/**
 * The key events (docs/decisions.md §18). No scope reads keys over the API, so a subscription
 * to them needs what any subscription needs: webhook management.
 */
export const keyEvents = {
  rotated: defineWebhookEvent({
    type: "api_key.rotated",
    readScope: "webhooks:read",
    payload: t.Object({
      apiKey: EventKey,
      previousKey: t.Object(
        {
          id: t.String({ format: "uuid" }),
          prefix: t.String(),
          graceEndsAt: t.Union([t.String({ format: "date-time" }), t.Null()]),
        },
        { title: "PreviousKey" },
      ),
    }),
  }),
  expiring: defineWebhookEvent({
    type: "api_key.expiring",
    readScope: "webhooks:read",
    payload: t.Object({
      apiKey: EventKey,
      daysLeft: t.Union([t.Literal(30), t.Literal(7), t.Literal(1)]),
    }),
  }),
  expired: defineWebhookEvent({
    type: "api_key.expired",
    readScope: "webhooks:read",
    payload: t.Object({ apiKey: EventKey }),
  }),
};
