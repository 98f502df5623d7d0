import { expect } from "bun:test";
import { eq } from "drizzle-orm";
import type { OrgitApp } from "../../src/app.ts";
import { webhookEvents } from "../../src/db/schema/index.ts";
import { WEBHOOK_EVENT_TYPES } from "../../src/features.ts";
import { send } from "./harness.ts";
import { PUBLIC_URL } from "./webhooks.ts";

/** Every scope the ticket, alert and equipment changes and their subscriptions need. */
export const LIFECYCLE_SCOPES = [
  "tickets:read",
  "tickets:write",
  "alerts:read",
  "alerts:write",
  "equipment:read",
  "equipment:write",
  "webhooks:read",
  "webhooks:write",
];

/** Every ticket, alert, equipment and webhook event type. */
export const LIFECYCLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter(
  (type) => !type.startsWith("project."),
);

export const VALID_TICKET = {
  title: "Printer jams",
  description: "The printer on floor 2 jams on every page.",
};

/**
 * Subscribes the key's organization to every lifecycle event (a public address: suites without
 * a dispatcher never send), so any change would leave an event row to count.
 */
export async function watchEvents(
  app: OrgitApp,
  key: string,
  events: readonly string[] = LIFECYCLE_EVENT_TYPES,
) {
  const response = await send(app, "/api/webhooks", { key, body: { url: PUBLIC_URL, events } });
  expect(response.status, await response.clone().text()).toBe(201);
}

/** The organization's stored webhook events. */
export async function eventCount(app: OrgitApp, organizationId: string) {
  const rows = await app.services.database.db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(eq(webhookEvents.organizationId, organizationId));
  return rows.length;
}

/** `send` and the parsed JSON answer. */
export async function call(
  app: OrgitApp,
  path: string,
  options: { key: string; method?: string; body?: unknown; headers?: Record<string, string> },
) {
  const response = await send(app, path, options);
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  const body = (await response.json()) as any;
  return { status: response.status, headers: response.headers, body };
}
