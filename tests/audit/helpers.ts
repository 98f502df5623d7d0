import type { OrgitApp } from "../../src/app.ts";
import type { Factories, RequestOptions } from "../helpers/harness.ts";
import { graphql, send } from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";

export const AUDIT_SCOPES = ["audit:read", "tickets:read", "tickets:write", "equipment:read"];

/** An ADMIN member whose key may read the trail (scope audit:read, permission audit.view). */
export const auditor = (make: Factories, organizationId?: string) =>
  make.member({ scopes: AUDIT_SCOPES, organizationId });

/**
 * Sends a request and waits until the trail has taken it: a request is recorded once its
 * answer is sent, which is after `app.handle` resolves.
 */
export async function sendRecorded(app: OrgitApp, path: string, options: RequestOptions = {}) {
  const stats = app.services.auditTrail.stats;
  const before = stats.received;
  const response = await send(app, path, options);
  await eventually(() => stats.received > before, `the audit trail to record ${path}`);
  return response;
}

/** `graphql` that waits until the trail has taken the request. */
export async function graphqlRecorded(...args: Parameters<typeof graphql>) {
  const stats = args[0].services.auditTrail.stats;
  const before = stats.received;
  const answer = await graphql(...args);
  await eventually(() => stats.received > before, "the audit trail to record /graphql");
  return answer;
}

/** Writes what the trail holds in memory, then reads a page as `key`. */
export async function readLog(app: OrgitApp, key: string, query = "") {
  await app.services.auditTrail.flush();
  const response = await sendRecorded(app, `/api/v1/audit-log${query}`, { key });
  // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON answer
  return { response, json: (await response.json()) as any };
}
