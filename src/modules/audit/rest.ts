import { Elysia, t } from "elysia";
import { ApiError, asApiError } from "../../errors.ts";
import { AuditLogDocument } from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, validationErrorResponse } from "../../http/error-schemas.ts";
import { ResponseInt } from "../../http/list-schemas.ts";
import { MAX_EXPORT_DAYS, STATUS_CLASSES } from "./filters.ts";
import type { AuditService } from "./service.ts";

const Entry = t.Object(
  {
    id: t.String(),
    at: t.String({ format: "date-time" }),
    kind: t.String({ description: "request, or a key or session event (docs/security.md)" }),
    keyId: t.Nullable(t.String({ format: "uuid" })),
    userId: t.Nullable(t.String({ format: "uuid" })),
    method: t.Nullable(t.String()),
    route: t.Nullable(t.String({ description: "route template, e.g. /api/v1/tickets/:id" })),
    status: t.Nullable(ResponseInt()),
    durationMs: t.Nullable(t.Number()),
    ip: t.Nullable(t.String()),
    userAgent: t.Nullable(t.String()),
    requestId: t.Nullable(t.String()),
    detail: t.Nullable(t.Record(t.String(), t.Unknown(), { description: "an event's facts" })),
  },
  { title: "AuditEntry" },
);
const AuditLogPage = t.Object(
  {
    data: t.Array(Entry),
    nextCursor: t.Nullable(t.String({ description: "pass as `after`; null on the last page" })),
  },
  { title: "AuditLogPage" },
);
const date = (description: string) => t.Optional(t.String({ description }));

/** GraphQL's `filter.from` is the query string's `from`: the same detail, its REST name. */
function restPaths(error: unknown): never {
  const api = asApiError(error);
  if (!api?.details) throw error;
  const details = api.details.map((d) => ({
    ...d,
    path: d.path[0] === "filter" ? d.path.slice(1) : d.path,
  }));
  throw new ApiError(api.code, api.message, details, api.extra, api.headers);
}

/** GET /api/v1/audit-log (the AuditLog operation) and its NDJSON export (a stream). */
export const auditRoutes = (deps: Pick<RestDeps, "auth"> & { audit: AuditService }) =>
  new Elysia({ prefix: "/api/v1", tags: ["extensions"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "/audit-log",
      async ({ run, query }) => {
        const answer = await run(AuditLogDocument, query).catch(restPaths);
        return {
          ...answer.auditLog,
          data: answer.auditLog.data.map((e) => ({
            ...e,
            detail: e.detail ? (JSON.parse(e.detail) as Record<string, unknown>) : null,
          })),
        };
      },
      {
        query: t.Object({
          keyId: t.Optional(t.String()),
          userId: t.Optional(t.String()),
          route: t.Optional(
            t.String({ description: "a route template, e.g. /api/v1/tickets/:id" }),
          ),
          statusClass: t.Optional(t.String({ description: STATUS_CLASSES.join(", ") })),
          ip: t.Optional(t.String()),
          from: date("from this instant on (RFC 3339 with a zone)"),
          to: date("before this instant (excluded)"),
          after: t.Optional(t.String({ description: "nextCursor of the page before" })),
          limit: t.Optional(
            t.Integer({ error: "Must be an integer", description: "1 to 200; default 50" }),
          ),
        }),
        response: { 200: AuditLogPage, ...validationErrorResponse, ...authErrorResponses },
        detail: {
          summary: "Read the usage and audit trail",
          description:
            "Scope audit:read and permission audit.view (an ADMIN seat). Every authenticated " +
            "request and key or session event of the organization, newest first, filtered by " +
            "keyId, userId, route (a template), statusClass, ip and [from, to); keyset pages " +
            "through `after` = the previous page's nextCursor.",
        },
      },
    )
    .get(
      "/audit-log/export",
      ({ principal, query }) =>
        new Response(deps.audit.export(principal, query), {
          headers: { "content-type": "application/x-ndjson", "cache-control": "no-store" },
        }),
      {
        query: t.Object({
          from: date("required: the first instant (RFC 3339 with a zone)"),
          to: date(`required: the end (excluded), at most ${MAX_EXPORT_DAYS} days after from`),
        }),
        response: {
          // the schema of each line; the answer is application/x-ndjson (x-media-type)
          200: t.Composite([Entry], {
            description: "NDJSON: one AuditEntry per line, oldest first",
          }),
          ...validationErrorResponse,
          ...authErrorResponses,
        },
        detail: {
          "x-media-type": "application/x-ndjson",
          summary: "Export the audit trail as NDJSON",
          description:
            "Scope audit:read and permission audit.view. Streams every entry of [from, to) " +
            `(at most ${MAX_EXPORT_DAYS} days), oldest first, one JSON object per line.`,
        },
      },
    );
