import { asc, eq } from "drizzle-orm";
import type { Database } from "../../src/db/client.ts";
import { projects, webhookEvents, webhookSubscriptions } from "../../src/db/schema/index.ts";
import type { Factories } from "./harness.ts";

export const ALL_PROJECT_SCOPES = ["projects:read", "projects:write"];

/** A member whose key may read and write projects (admin role unless told otherwise). */
export const projectMember = (make: Factories, options: Parameters<Factories["member"]>[0] = {}) =>
  make.member({ scopes: ALL_PROJECT_SCOPES, ...options });

/**
 * A subscription to every project event, written straight to the table: the outbox only keeps
 * events someone subscribed to. The URL is loopback, which the SSRF guard refuses in tests, so
 * no dispatcher ever sends anything anywhere.
 */
export async function subscribeAll(database: Database, organizationId: string) {
  await database.db.insert(webhookSubscriptions).values({
    organizationId,
    url: "https://127.0.0.1:9/hook",
    events: ["project.created", "project.updated", "project.deleted"],
    secret: "whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0c2VjcmV0",
  });
}

/** The outbox events of an organization, oldest first, as `{ type, payload }`. */
export async function outboxEvents(database: Database, organizationId: string) {
  const rows = await database.db
    .select({ type: webhookEvents.type, payload: webhookEvents.payload })
    .from(webhookEvents)
    .where(eq(webhookEvents.organizationId, organizationId))
    .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  // biome-ignore lint/suspicious/noExplicitAny: tests read the stored JSON payload
  return rows as { type: string; payload: any }[];
}

export async function storedProjects(database: Database, organizationId: string) {
  return database.db.select().from(projects).where(eq(projects.organizationId, organizationId));
}
