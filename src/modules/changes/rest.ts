import { Elysia, t } from "elysia";
import { validationFailed } from "../../errors.ts";
import {
  type AlertRecordFragment,
  type EquipmentRecordFragment,
  ListChangesDocument,
  type ListChangesQuery,
  type TicketRecordFragment,
} from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import {
  authErrorResponses,
  ErrorSchema,
  validationErrorResponse,
} from "../../http/error-schemas.ts";
import { oneOf } from "../../http/list-schemas.ts";
import { AlertRecord } from "../alerts/models.ts";
import { EquipmentRecord } from "../equipment/models.ts";
import { ticketJson } from "../tickets/json.ts";
import { TicketRecord } from "../tickets/models.ts";
import { CHANGE_LIMIT, CHANGE_TYPES } from "./service.ts";

const ChangeJson = t.Object(
  {
    type: oneOf(CHANGE_TYPES),
    id: t.String({ format: "uuid" }),
    op: oneOf(["upsert", "delete"], "upsert: created or changed; delete: gone, or no longer yours"),
    at: t.String({ format: "date-time", description: "when the change was written" }),
    record: t.Union([TicketRecord, AlertRecord, EquipmentRecord, t.Null()], {
      description:
        "the record as its GET (/tickets/{id}, /alerts/{id}, /equipments/{id}) answers it now; null for a delete",
    }),
  },
  { title: "Change" },
);

const ChangePage = t.Object(
  {
    data: t.Array(ChangeJson),
    next: t.String({ description: "send as `since` next time; store it" }),
    hasMore: t.Boolean({ description: "more changes are ready now: ask again at once" }),
  },
  { title: "ChangePage" },
);

type ChangeOut = ListChangesQuery["changes"]["data"][number];
type RecordOut = NonNullable<ChangeOut["record"]>;

/** `record` with one key renamed where it stands, so the answer keeps its GET's key order. */
function renamed<T extends object, From extends keyof T & string, To extends string>(
  record: T,
  from: From,
  to: To,
) {
  const entries = Object.entries(record).map(([key, value]) => [key === from ? to : key, value]);
  return Object.fromEntries(entries) as Omit<T, From> & Record<To, T[From]>;
}

/**
 * Each record exactly as its GET answers it: a ticket through the tickets' own mapping
 * (snake_case), an alert and an equipment record as their fragments (GET /alerts/{id} and
 * GET /equipments/{id} answer those as they are). The fragment types make a field added to a
 * record but not to the feed's operation a type error here.
 */
function recordJson(record: RecordOut | null) {
  if (record === null) return null;
  if ("alertStatus" in record) {
    const alert: AlertRecordFragment = renamed(record, "alertStatus", "status");
    return alert;
  }
  if ("equipmentStatus" in record) {
    const equipment: EquipmentRecordFragment = renamed(record, "equipmentStatus", "status");
    return equipment;
  }
  return ticketJson(record satisfies TicketRecordFragment);
}

/** `types=tickets,alerts`: a comma list of known types (absent: every type the key may read). */
function parseTypes(types: string | undefined) {
  if (types === undefined) return undefined;
  const asked = types.split(",").map((type) => type.trim());
  const unknown = asked.filter((type) => !(CHANGE_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0 || asked.length === 0) {
    throw validationFailed([
      { path: ["types"], message: `Must be a comma list of: ${CHANGE_TYPES.join(", ")}` },
    ]);
  }
  return asked as (typeof CHANGE_TYPES)[number][];
}

/** GET /api/v1/changes over the ListChanges operation (docs/api.md, the change feed). */
export const changeRoutes = ({ auth }: Pick<RestDeps, "auth">) =>
  new Elysia({ prefix: "/api/v1", tags: ["extensions"] }).use(apiKeyAuth(auth)).get(
    "/changes",
    async ({ run, query }) => {
      const { changes } = await run(ListChangesDocument, {
        types: parseTypes(query.types),
        since: query.since,
        limit: query.limit,
      });
      return {
        data: changes.data.map((change) => ({ ...change, record: recordJson(change.record) })),
        next: changes.next,
        hasMore: changes.hasMore,
      } as typeof ChangePage.static;
    },
    {
      query: t.Object({
        types: t.Optional(
          t.String({
            description: `comma list of ${CHANGE_TYPES.join(", ")}; default every type the key may read`,
          }),
        ),
        since: t.Optional(
          t.String({ description: "the `next` of an earlier answer; absent: from the beginning" }),
        ),
        limit: t.Optional(
          t.Integer({
            error: "Must be an integer",
            description: `${CHANGE_LIMIT.min} to ${CHANGE_LIMIT.max} (default ${CHANGE_LIMIT.default})`,
          }),
        ),
      }),
      response: {
        200: ChangePage,
        ...validationErrorResponse,
        ...authErrorResponses,
        410: t.Composite([ErrorSchema], {
          description: "Sync token expired: start again without `since`",
        }),
      },
      detail: {
        summary: "Follow every change (incremental sync)",
        description:
          "Changes of tickets (scope tickets:read), alerts (alerts:read and permission " +
          "alerts.view) and equipment (equipment:read), oldest first, each change once. Store " +
          "`next` and send it as `since`. A type asked for without its rights: 403. Without " +
          "tickets.view_all only the key owner's tickets; without equipment.view_all only " +
          "equipment assigned to the owner. Deletions are kept 30 days: an older token is a 410.",
      },
    },
  );
