import { Elysia, t } from "elysia";
import {
  AcknowledgeAlertDocument,
  GetAlertDocument,
  ListAlertsDocument,
  ReopenAlertDocument,
  ResolveAlertDocument,
} from "../../generated/graphql.ts";
import type { RunOperation } from "../../graphql/operations.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import {
  authErrorResponses,
  ErrorSchema,
  validationErrorResponse,
} from "../../http/error-schemas.ts";
import { idempotent } from "../../http/idempotency.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, oneOf, PageQuery, ResponseInt } from "../../http/list-schemas.ts";
import { requestMeta } from "../../http/request-context.ts";
import { expectedVersion, versionErrorResponses, withETag } from "../../http/versions.ts";
import { ALERT_SEVERITIES, INGEST_LIMITS } from "./ingest-input.ts";
import { AlertIdParams, AlertRecord, MoveHeaders, NoteBody } from "./models.ts";
import { ALERT_STATUSES, type AlertService } from "./service.ts";

export const Alert = t.Object(
  {
    id: t.String({ format: "uuid" }),
    source: t.String(),
    externalId: t.Nullable(t.String()),
    severity: oneOf(ALERT_SEVERITIES),
    status: oneOf(ALERT_STATUSES),
    title: t.String(),
    message: t.Nullable(t.String()),
    equipmentId: t.Nullable(t.String({ format: "uuid" })),
    occurredAt: t.Nullable(t.String({ format: "date-time", description: "sender's time" })),
    receivedAt: t.String({ format: "date-time" }),
  },
  { title: "Alert" },
);
const AlertList = envelope(Alert, "AlertList");

const L = INGEST_LIMITS;
const IngestAlert = t.Object(
  {
    source: t.String({ description: `required, ${L.source.min} to ${L.source.max} characters` }),
    title: t.String({ description: `required, ${L.title.min} to ${L.title.max} characters` }),
    severity: t.Optional(oneOf(ALERT_SEVERITIES, "info, warning or critical; default warning")),
    message: t.Optional(t.String({ description: `up to ${L.message.max} characters` })),
    externalId: t.Optional(
      t.String({
        description: `${L.externalId.min} to ${L.externalId.max} characters; with source it identifies a duplicate`,
      }),
    ),
    equipmentId: t.Optional(
      t.String({ format: "uuid", description: "equipment of the organization" }),
    ),
    occurredAt: t.Optional(t.String({ format: "date-time", description: "with a time zone" })),
  },
  { title: "IngestAlert", additionalProperties: true },
);
const IngestBody = t.Union(
  [
    IngestAlert,
    t.Object(
      { alerts: t.Array(IngestAlert, { minItems: L.batch.min, maxItems: L.batch.max }) },
      { title: "IngestBatch" },
    ),
  ],
  { description: "one alert, or { alerts: [...] } with 1 to 100 of them" },
);
const IngestResult = t.Object(
  {
    received: ResponseInt({ description: "alerts in the request" }),
    created: ResponseInt({ description: "alerts stored now" }),
    duplicates: ResponseInt({ description: "alerts whose source + externalId was already known" }),
    ids: t.Array(t.String({ format: "uuid" }), {
      description:
        "one per received alert, in order; a duplicate's is the id of the alert it repeats",
    }),
  },
  { title: "IngestResult" },
);

/** GET /api/v1/alerts (API key) over the ListAlerts operation. */
const listRoute = (deps: Pick<RestDeps, "auth" | "publicBaseUrl">) =>
  new Elysia({ prefix: "/api/v1", tags: ["alerts"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "/alerts",
      async ({ run, query, request, set }) =>
        listAnswer(
          deps.publicBaseUrl,
          request,
          set.headers,
          (await run(ListAlertsDocument, query)).alerts,
        ),
      {
        query: t.Object({
          ...PageQuery,
          status: t.Optional(oneOf(ALERT_STATUSES)),
          severity: t.Optional(oneOf(ALERT_SEVERITIES)),
        }),
        response: { 200: AlertList, ...validationErrorResponse, ...authErrorResponses },
        detail: {
          summary: "List alerts",
          description:
            "Scope alerts:read and permission alerts.view. Filters `status` and `severity`; " +
            "newest received first; `limit` 1 to 200 (default 50), `offset` ≥ 0.",
        },
      },
    );

/**
 * POST /api/v1/alerts/ingest, without a key. It is not a GraphQL operation: the caller is
 * identified by its network address, which only the HTTP layer knows (the one client-IP
 * resolver, TRUST_PROXY-aware), and /graphql refuses callers without a key. The body is
 * validated by the alert service, so every problem is reported with its exact path; the
 * schema here documents it.
 */
const ingestRoute = ({ alerts }: { alerts: AlertService }) =>
  new Elysia({ prefix: "/api/v1", tags: ["alerts"] }).post(
    "/alerts/ingest",
    async ({ request, body, set }) => {
      const result = await alerts.ingest(requestMeta(request)?.clientIp, body);
      set.status = 202;
      return result;
    },
    {
      response: {
        202: IngestResult,
        ...validationErrorResponse,
        403: t.Composite([ErrorSchema], {
          description: "IP not allowed: the caller's address is in no ingest source",
        }),
        // keyless, but limited per IP like every /api/v1 request
        429: authErrorResponses[429],
        500: authErrorResponses[500],
      },
      detail: {
        summary: "Ingest external alerts (inbound webhook)",
        description:
          "No API key: the caller's IP (the socket peer, or the first untrusted X-Forwarded-For " +
          "hop behind a TRUST_PROXY proxy) must fall in an organization's ingest source, which " +
          "also names the organization; otherwise 403 `IP not allowed`. Body: one alert or " +
          "`{ alerts: [...] }` (1 to 100); the whole body is checked before anything is stored. " +
          "An alert with the source + externalId of a stored one (or of an earlier one in the " +
          "batch) is a duplicate and is not stored again. 202 with `ids` in request order.",
        security: [],
        requestBody: {
          required: true,
          content: { "application/json": { schema: IngestBody } },
        },
      },
    },
  );

type Run = RunOperation;
type MoveVariables = { id: string; note?: string | null; expectedVersion: number | null };

const MOVES = {
  acknowledge: {
    run: async (run: Run, v: MoveVariables) =>
      (await run(AcknowledgeAlertDocument, v)).acknowledgeAlert,
    summary: "Acknowledge an alert",
    rule: "open → acknowledged, with an optional note. Emits alert.acknowledged.",
  },
  resolve: {
    run: async (run: Run, v: MoveVariables) => (await run(ResolveAlertDocument, v)).resolveAlert,
    summary: "Resolve an alert",
    rule: "open or acknowledged → resolved, with an optional note. Emits alert.resolved.",
  },
  reopen: {
    run: async (run: Run, { note: _, ...v }: MoveVariables) =>
      (await run(ReopenAlertDocument, v)).reopenAlert,
    summary: "Reopen an alert",
    rule: "acknowledged or resolved → open; who and why of both are cleared. Emits alert.reopened.",
  },
} as const;

/** GET /api/v1/alerts/{id} and the moves (docs/decisions.md §17.4) over the alert operations. */
const extensionRoutes = ({ auth, idempotency }: Pick<RestDeps, "auth" | "idempotency">) => {
  const { 404: missing, 409: conflict, 412: stale } = versionErrorResponses;
  let routes = new Elysia({ prefix: "/api/v1", tags: ["extensions"] })
    .use(apiKeyAuth(auth))
    .get(
      "/alerts/:id",
      async ({ params, run, set }) =>
        withETag(set, (await run(GetAlertDocument, { id: params.id })).alert),
      {
        params: AlertIdParams,
        response: { 200: AlertRecord, 404: missing, ...authErrorResponses },
        detail: {
          summary: "Read an alert",
          description: 'Scope alerts:read and permission alerts.view. `ETag: "<version>"`.',
        },
      },
    );
  for (const [name, move] of Object.entries(MOVES)) {
    routes = routes.post(
      `/alerts/:id/${name}`,
      async (ctx) =>
        withETag(
          ctx.set,
          await idempotent(idempotency, ctx, async () => {
            const alert = await move.run(ctx.run, {
              id: ctx.params.id,
              note: ctx.body?.note,
              expectedVersion: expectedVersion(ctx.headers["if-match"]),
            });
            return { status: 200, body: { ...alert } };
          }),
        ) as typeof AlertRecord.static,
      {
        params: AlertIdParams,
        body: NoteBody,
        headers: MoveHeaders,
        response: {
          200: AlertRecord,
          ...validationErrorResponse,
          404: missing,
          409: conflict,
          412: stale,
          ...authErrorResponses,
        },
        detail: {
          summary: move.summary,
          description: `Scope alerts:write and permission alerts.manage. ${move.rule} Any other move is 409 \`Invalid status transition: <from> → <to>\`.`,
        },
      },
    ) as unknown as typeof routes;
  }
  return routes;
};

export const alertRoutes = (deps: RestDeps & { alerts: AlertService }) =>
  new Elysia().use(ingestRoute(deps)).use(listRoute(deps)).use(extensionRoutes(deps));
