import { eq } from "drizzle-orm";
import type { OrgitApp } from "../../src/app.ts";
import type { Database } from "../../src/db/client.ts";
import { apiKeys, webhookEvents } from "../../src/db/schema/index.ts";
import { type Factories, graphql, TEST_ADMIN_TOKEN } from "../helpers/harness.ts";
import { createWebhook, PUBLIC_URL, WEBHOOK_SCOPES } from "../helpers/webhooks.ts";

/** Operator operations of docs/security.md's key features, as a client sends them to /graphql. */
export const ROTATE = `mutation($id: ID!, $grace: Seconds) {
  rotateApiKey(id: $id, gracePeriod: $grace) {
    secret
    apiKey { id name scopes userId expiresAt allowedIps status prefix }
  }
}`;
export const SET_IPS = `mutation($id: ID!, $ips: [String!]!) {
  setApiKeyAllowedIps(id: $id, allowedIps: $ips) { id allowedIps }
}`;
export const SET_POLICY = `mutation($org: ID!, $days: Int) {
  setKeyLifetimePolicy(organizationId: $org, maxKeyLifetimeDays: $days) { organizationId maxKeyLifetimeDays }
}`;
export const UPDATE_ORG = `mutation($id: ID!, $input: UpdateOrganizationInput!) {
  updateOrganization(id: $id, input: $input) { id maxKeyLifetimeDays }
}`;
export const ORG_KEYS = `query($id: ID!) {
  organization(id: $id) {
    maxKeyLifetimeDays
    apiKeys { id name status allowedIps rotatedAt replacedById graceEndsAt graceUsedAt graceUsedIp exceedsLifetimePolicy expiresAt }
  }
}`;

/** Runs an operator operation; answers `data` or the first error. */
export async function operator(app: OrgitApp, query: string, variables: Record<string, unknown>) {
  const { json } = await graphql(app, TEST_ADMIN_TOKEN, query, variables);
  return {
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary GraphQL result shapes
    data: json.data as any,
    error: json.errors?.[0] as
      | {
          message: string;
          extensions: {
            code: string;
            status: number;
            details?: { path: string[]; message: string }[];
          };
        }
      | undefined,
  };
}

/** A subscription to every api_key.* event, made over REST by an admin of the organization. */
export async function subscribeToKeyEvents(app: OrgitApp, make: Factories, organizationId: string) {
  const admin = await make.member({ organizationId, scopes: WEBHOOK_SCOPES });
  await createWebhook(app, admin.key, {
    url: PUBLIC_URL,
    events: ["api_key.rotated", "api_key.expiring", "api_key.expired"],
  });
}

/** The api_key.* events written to the outbox for an organization, oldest first. */
export async function keyEvents(database: Database, organizationId: string) {
  const rows = await database.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.organizationId, organizationId))
    .orderBy(webhookEvents.createdAt);
  return rows
    .map((row) => row.payload as { type: string; timestamp: string; data: Record<string, unknown> })
    .filter((payload) => payload.type.startsWith("api_key."));
}

export const keyRow = async (database: Database, id: string) =>
  (await database.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0];
