/**
 * Friendly names for the service's request and response bodies. Every type here points INTO
 * the generated `paths` (src/generated/openapi.ts), so a change to the OpenAPI document changes
 * these types, and a removed route or status breaks the build.
 */
import type { components, paths } from "./generated/openapi.js";

type P = paths;
/** the `application/json` body of one answer */
type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
/** a list's query parameters, with `limit`/`offset`/`page` as numbers */
type Query<Q, Numbers extends string> = Omit<NonNullable<Q>, Numbers> & {
  [K in Numbers & keyof NonNullable<Q>]?: number;
};
type Item<List> = List extends { data: (infer T)[] } ? T : never;

// --- shared ---------------------------------------------------------------------------------
export type ErrorBody = Json<P["/api/v1/tickets"]["post"]["responses"][400]>;
export type ErrorDetail = NonNullable<ErrorBody["details"]>[number];
export type RateLimitedBody = Json<P["/api/v1/tickets"]["post"]["responses"][429]>;
export type OffsetPagination = TicketPage["pagination"];
export type PagePagination = ProjectList["pagination"];

// --- identity -------------------------------------------------------------------------------
export type Whoami = Json<P["/api/v1/whoami"]["get"]["responses"][200]>;
export type Health = Json<P["/api/v1/health"]["get"]["responses"][200]>;

// --- equipment and install links ------------------------------------------------------------
export type EquipmentPage = Json<P["/api/v1/equipments"]["get"]["responses"][200]>;
export type Equipment = Item<EquipmentPage>;
export type EquipmentListQuery = Query<
  P["/api/v1/equipments"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type BulkCreateInput = P["/api/v1/equipments/bulk-create"]["post"]["requestBody"] extends
  | { content: { "application/json": infer B } }
  | undefined
  ? B
  : never;
export type BulkCreateItem = BulkCreateInput["items"][number];
export type BulkCreateResult = Json<P["/api/v1/equipments/bulk-create"]["post"]["responses"][201]>;
export type InstallInfo = Json<P["/install/{token}"]["get"]["responses"][200]>;

// --- units, groups, users, agent releases -----------------------------------------------------
export type UnitList = Json<P["/api/v1/equipment-units"]["get"]["responses"][200]>;
export type Unit = Item<UnitList>;
export type UnitListQuery = Query<
  P["/api/v1/equipment-units"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type GroupList = Json<P["/api/v1/groups"]["get"]["responses"][200]>;
export type Group = Item<GroupList>;
export type GroupListQuery = Query<
  P["/api/v1/groups"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type MemberList = Json<P["/api/v1/users"]["get"]["responses"][200]>;
export type Member = Item<MemberList>;
export type MemberListQuery = Query<
  P["/api/v1/users"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type AgentReleaseList = Json<P["/api/v1/agent-releases"]["get"]["responses"][200]>;
export type AgentRelease = Item<AgentReleaseList>;
export type AgentReleaseListQuery = Query<
  P["/api/v1/agent-releases"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;

// --- alerts ---------------------------------------------------------------------------------
export type AlertList = Json<P["/api/v1/alerts"]["get"]["responses"][200]>;
export type Alert = Item<AlertList>;
export type AlertListQuery = Query<
  P["/api/v1/alerts"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type AlertIngestBody = P["/api/v1/alerts/ingest"]["post"]["requestBody"] extends
  | { content: { "application/json": infer B } }
  | undefined
  ? B
  : never;
export type AlertInput = Exclude<AlertIngestBody, { alerts: unknown }>;
export type IngestResult = Json<P["/api/v1/alerts/ingest"]["post"]["responses"][202]>;

// --- tickets --------------------------------------------------------------------------------
export type TicketPage = Json<P["/api/v1/tickets"]["get"]["responses"][200]>;
export type Ticket = Json<P["/api/v1/tickets"]["post"]["responses"][201]>;
export type TicketListQuery = Query<
  P["/api/v1/tickets"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type TicketCreateInput = NonNullable<
  P["/api/v1/tickets"]["post"]["requestBody"]
>["content"]["application/json"];

// --- one ticket, alert or equipment record and their changes (tag `extensions`) ------------
type Body<R> = R extends { content: { "application/json": infer B } } | undefined ? B : never;
export type TicketRecord = Json<P["/api/v1/tickets/{id}"]["get"]["responses"][200]>;
export type TicketUpdateInput = Body<P["/api/v1/tickets/{id}"]["patch"]["requestBody"]>;
export type TicketCommentList = Json<P["/api/v1/tickets/{id}/comments"]["get"]["responses"][200]>;
export type TicketComment = Item<TicketCommentList>;
export type TicketCommentListQuery = Query<
  P["/api/v1/tickets/{id}/comments"]["get"]["parameters"]["query"],
  "limit" | "offset"
>;
export type AlertRecord = Json<P["/api/v1/alerts/{id}"]["get"]["responses"][200]>;
export type EquipmentRecord = Json<P["/api/v1/equipments/{id}"]["get"]["responses"][200]>;
export type EquipmentUpdateInput = Body<P["/api/v1/equipments/{id}"]["patch"]["requestBody"]>;

// --- projects (interface B) -----------------------------------------------------------------
export type ProjectList = Json<P["/api/projects"]["get"]["responses"][200]>;
export type ProjectSummary = Item<ProjectList>;
export type ProjectListQuery = Query<
  P["/api/projects"]["get"]["parameters"]["query"],
  "page" | "limit"
>;
export type Project = Json<P["/api/projects/{id}"]["get"]["responses"][200]>;
export type CreatedProject = Json<P["/api/projects"]["post"]["responses"][201]>;
export type ProjectCreateInput = NonNullable<
  P["/api/projects"]["post"]["requestBody"]
>["content"]["application/json"];
export type ProjectUpdateInput = NonNullable<
  P["/api/projects/{id}"]["patch"]["requestBody"]
>["content"]["application/json"];
export type Deleted = Json<P["/api/projects/{id}"]["delete"]["responses"][200]>;

// --- webhooks (interface B) -----------------------------------------------------------------
export type WebhookList = Json<P["/api/webhooks"]["get"]["responses"][200]>;
export type Webhook = Json<P["/api/webhooks/{id}"]["get"]["responses"][200]>;
export type WebhookListQuery = Query<
  P["/api/webhooks"]["get"]["parameters"]["query"],
  "page" | "limit"
>;
export type CreatedWebhook = Json<P["/api/webhooks"]["post"]["responses"][201]>;
export type WebhookCreateInput = NonNullable<
  P["/api/webhooks"]["post"]["requestBody"]
>["content"]["application/json"];
export type WebhookUpdateInput = NonNullable<
  P["/api/webhooks/{id}"]["patch"]["requestBody"]
>["content"]["application/json"];
export type WebhookDeliveryList = Json<P["/api/webhooks/{id}/deliveries"]["get"]["responses"][200]>;
export type WebhookDelivery = Json<
  P["/api/webhooks/{id}/deliveries/{deliveryId}/retry"]["post"]["responses"][202]
>;
export type RotatedWebhookSecret = Json<
  P["/api/webhooks/{id}/rotate-secret"]["post"]["responses"][200]
>;
export type WebhookRotateSecretInput = NonNullable<
  NonNullable<
    P["/api/webhooks/{id}/rotate-secret"]["post"]["requestBody"]
  >["content"]["application/json"]
>;
export type WebhookDeliveryListQuery = Query<
  P["/api/webhooks/{id}/deliveries"]["get"]["parameters"]["query"],
  "page" | "limit"
>;

// --- webhook deliveries' payload (not served, so not in the service's OpenAPI document) -------
// generated with it from the payload schemas each feature declares (scripts/webhook-event-types.ts)
type S = components["schemas"];
/** What `verifyWebhook` returns: narrow on `type`. */
export type WebhookEvent = S["WebhookEvent"];
export type WebhookEventType = WebhookEvent["type"];
type EventOf<T extends string> = Extract<WebhookEvent, { type: T }>;
export type ProjectEventType = EventOf<`project.${string}`>["type"];
/** API key events (docs/webhooks.md): a rotation and the expiry warnings */
export type ApiKeyEventType = EventOf<`api_key.${string}`>["type"];
export type ProjectCreatedEvent = S["ProjectCreatedEvent"];
export type ProjectUpdatedEvent = S["ProjectUpdatedEvent"];
export type ProjectDeletedEvent = S["ProjectDeletedEvent"];
export type TicketCreatedEvent = S["TicketCreatedEvent"];
export type TicketUpdatedEvent = S["TicketUpdatedEvent"];
export type TicketCommentedEvent = S["TicketCommentedEvent"];
export type AlertEvent = EventOf<`alert.${string}`>;
export type EquipmentCreatedEvent = EventOf<"equipment.created" | "equipment.retired">;
export type EquipmentUpdatedEvent = S["EquipmentUpdatedEvent"];
/** Sent to the organization's other subscriptions when one is turned off after failing. */
export type WebhookDisabledEvent = S["WebhookDisabledEvent"];
export type ApiKeyRotatedEvent = S["ApiKeyRotatedEvent"];
export type ApiKeyExpiringEvent = S["ApiKeyExpiringEvent"];
export type ApiKeyExpiredEvent = S["ApiKeyExpiredEvent"];
/** `ticket.updated` and `equipment.updated`: each changed field's value before and after. */
export type FieldChanges = TicketUpdatedEvent["data"]["changes"];
/** What an `api_key.*` event says of a key: never its secret. */
export type ApiKeyEventKey = ApiKeyExpiredEvent["data"]["apiKey"];

// --- the change feed (incremental sync) -------------------------------------------------------
export type ChangePage = Json<P["/api/v1/changes"]["get"]["responses"][200]>;
export type Change = Item<ChangePage>;
export type ChangeType = Change["type"];

// --- usage and audit trail (extensions) ------------------------------------------------------
export type AuditLogPage = Json<P["/api/v1/audit-log"]["get"]["responses"][200]>;
export type AuditEntry = Item<AuditLogPage>;
export type AuditLogQuery = Query<P["/api/v1/audit-log"]["get"]["parameters"]["query"], "limit">;
/** `[from, to)`, at most 31 days; RFC 3339 text or a Date */
export interface AuditExportRange {
  from: string | Date;
  to: string | Date;
}
