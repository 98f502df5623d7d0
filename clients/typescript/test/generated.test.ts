import { expect, test } from "bun:test";
import { GENERATED_PATH, generateTypes, REGENERATE_COMMAND } from "../scripts/generate-types.ts";
import type * as Models from "../src/models.ts";

/**
 * Drift: the committed src/generated/openapi.ts must be what the service's OpenAPI document
 * generates today. When a route, field or status changes, this fails until the types are
 * regenerated, and the models that point into them (src/models.ts) change or stop compiling.
 */
test("src/generated/openapi.ts matches the service's current OpenAPI document", async () => {
  const committed = await Bun.file(GENERATED_PATH).text();
  const fresh = await generateTypes();
  if (fresh !== committed) {
    throw new Error(
      `src/generated/openapi.ts is out of date with the service's OpenAPI document. Regenerate it with \`${REGENERATE_COMMAND}\` (from the repository root), check the diff of src/models.ts' types, and commit both.`,
    );
  }
  expect(fresh).toStartWith("// generated — do not edit, run ");
  expect(fresh).not.toContain("multipart/form-data");
}, 60_000);

/**
 * Compile-time: every friendly model resolves to a real type (never is what an indexed access
 * into a vanished content type would give). Checked by `tsc`; the runtime part is trivial.
 */
type Unresolved<T> = { [K in keyof T]: [T[K]] extends [never] ? K : never }[keyof T];
type Checked = {
  Whoami: Models.Whoami;
  Health: Models.Health;
  Equipment: Models.Equipment;
  EquipmentPage: Models.EquipmentPage;
  BulkCreateResult: Models.BulkCreateResult;
  InstallInfo: Models.InstallInfo;
  Unit: Models.Unit;
  Group: Models.Group;
  Member: Models.Member;
  AgentRelease: Models.AgentRelease;
  Alert: Models.Alert;
  IngestResult: Models.IngestResult;
  Ticket: Models.Ticket;
  TicketPage: Models.TicketPage;
  Project: Models.Project;
  ProjectSummary: Models.ProjectSummary;
  CreatedProject: Models.CreatedProject;
  Webhook: Models.Webhook;
  CreatedWebhook: Models.CreatedWebhook;
  WebhookDelivery: Models.WebhookDelivery;
  WebhookDeliveryList: Models.WebhookDeliveryList;
  TicketCreateInput: Models.TicketCreateInput;
  BulkCreateInput: Models.BulkCreateInput;
  BulkCreateItem: Models.BulkCreateItem;
  AlertIngestBody: Models.AlertIngestBody;
  AlertInput: Models.AlertInput;
  ProjectCreateInput: Models.ProjectCreateInput;
  ProjectUpdateInput: Models.ProjectUpdateInput;
  WebhookCreateInput: Models.WebhookCreateInput;
  WebhookUpdateInput: Models.WebhookUpdateInput;
  ErrorBody: Models.ErrorBody;
  ErrorDetail: Models.ErrorDetail;
  RateLimitedBody: Models.RateLimitedBody;
  Deleted: Models.Deleted;
};
/** `true` only when no model above is `never`; otherwise this line does not compile */
const everyModelResolves: [Unresolved<Checked>] extends [never] ? true : false = true;

test("the friendly models resolve into the generated paths", () => {
  expect(everyModelResolves).toBe(true);
  const ticket: Models.Ticket = {
    id: "00000000-0000-4000-8000-000000000000",
    title: "Typed",
    status: "open",
    priority: "medium",
    equipment_id: null,
    created_by: "00000000-0000-4000-8000-000000000001",
    created_at: "2026-01-01T00:00:00.000Z",
  };
  const query: Models.TicketListQuery = { limit: 3, offset: 0, status: "open", priority: "high" };
  expect(Object.keys(ticket)).toContain("equipment_id");
  expect(query.limit).toBe(3);
});
