import { eq } from "drizzle-orm";
import type { OrgitApp } from "../../src/app.ts";
import type { Database } from "../../src/db/client.ts";
import { webhookSubscriptions } from "../../src/db/schema/index.ts";
import { type Factories, send } from "./harness.ts";

export const WEBHOOK_SCOPES = ["webhooks:read", "webhooks:write"];
export const ALL_EVENTS = ["project.created", "project.updated", "project.deleted"];
/** a public address literal: passes the SSRF guard without DNS, and nothing listens there */
export const PUBLIC_URL = "https://93.184.216.34/hooks/orgit";

/** A member whose key may manage webhooks (admin role unless told otherwise). */
export const webhookMember = (make: Factories, options: Parameters<Factories["member"]>[0] = {}) =>
  make.member({ scopes: WEBHOOK_SCOPES, ...options });

/** Creates a subscription over REST and answers its JSON (with the secret). */
export async function createWebhook(
  app: OrgitApp,
  key: string,
  body: Record<string, unknown> = { url: PUBLIC_URL, events: ALL_EVENTS },
) {
  const response = await send(app, "/api/webhooks", { key, body });
  if (response.status !== 201)
    throw new Error(`create webhook: ${response.status} ${await response.text()}`);
  return response.json();
}

export function storedWebhooks(database: Database, organizationId: string) {
  return database.db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.organizationId, organizationId));
}
