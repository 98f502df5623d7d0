import { Elysia, t } from "elysia";
import { asApiError } from "../../errors.ts";
import {
  BulkCreateEquipmentDocument,
  GetEquipmentDocument,
  ListEquipmentDocument,
  RetireEquipmentDocument,
  UpdateEquipmentDocument,
} from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses } from "../../http/error-schemas.ts";
import { idempotent } from "../../http/idempotency.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, oneOf, PageQuery } from "../../http/list-schemas.ts";
import { throttled } from "../../http/rate-limit.ts";
import { requestMeta } from "../../http/request-context.ts";
import { credentialSurface } from "../../http/surfaces.ts";
import {
  expectedVersion,
  IfMatchHeader,
  restPaths,
  versionErrorResponses,
  withETag,
} from "../../http/versions.ts";
import type { Services } from "../../services.ts";
import {
  BulkCreateBody,
  BulkCreateResult,
  EquipmentIdParams,
  EquipmentJson,
  EquipmentRecord,
  errorResponse,
  InstallInfo,
  STATUSES,
  UpdateEquipmentBody,
} from "./models.ts";

/** GET /api/v1/equipments and POST /api/v1/equipments/bulk-create. */
export const equipmentRoutes = ({ auth, idempotency, publicBaseUrl }: RestDeps) =>
  new Elysia({ prefix: "/api/v1", tags: ["equipment"] })
    .use(apiKeyAuth(auth))
    .get(
      "/equipments",
      async ({ query, run, request, set }) =>
        listAnswer(
          publicBaseUrl,
          request,
          set.headers,
          (await run(ListEquipmentDocument, query)).equipments,
        ),
      {
        query: t.Object({ ...PageQuery, status: t.Optional(oneOf(STATUSES)) }),
        response: {
          200: envelope(EquipmentJson, "EquipmentPage"),
          400: errorResponse("Validation failed: limit, offset or status"),
          ...authErrorResponses,
        },
        detail: {
          summary: "List equipment",
          description:
            "Scope equipment:read. Newest first. Without the permission equipment.view_all " +
            "only equipment assigned to the key owner is listed.",
        },
      },
    )
    .post(
      "/equipments/bulk-create",
      (ctx) => {
        ctx.set.headers["cache-control"] = "no-store"; // install links carry their tokens
        return idempotent(idempotency, ctx, async () => {
          const { bulkCreateEquipment } = await ctx.run(BulkCreateEquipmentDocument, {
            input: ctx.body,
          });
          return { status: 201, body: bulkCreateEquipment };
        });
      },
      {
        body: BulkCreateBody,
        headers: t.Object({
          "idempotency-key": t.Optional(
            t.String({ description: "replays the first response for 24 h (same body)" }),
          ),
        }),
        response: {
          201: BulkCreateResult,
          400: errorResponse(
            "Validation failed: the body's shape, more than 100 items, or no item valid " +
              '(details name each item\'s field, e.g. ["items","2","unitId"])',
          ),
          ...authErrorResponses,
          409: errorResponse("Idempotency-Key reused with a different body, or still in progress"),
        },
        detail: {
          summary: "Create up to 100 equipment records with agent install links",
          description:
            "Scope equipment:write and permission equipment.manage. Every item is checked; the " +
            "valid ones are created together (status pending), the others are listed in " +
            "`errors`. 201 when at least one was created.",
        },
      },
    );

const { 404: missing, 409: conflict, 412: stale } = versionErrorResponses;
const validation = errorResponse("Validation failed, with details naming each field");

/** The equipment extension routes (docs/api.md): one record, its changes and retirement. */
export const equipmentExtensionRoutes = ({
  auth,
  idempotency,
}: Pick<RestDeps, "auth" | "idempotency">) =>
  new Elysia({ prefix: "/api/v1", tags: ["extensions"] })
    .use(apiKeyAuth(auth))
    .get(
      "/equipments/:id",
      async ({ params, run, set }) =>
        withETag(set, (await run(GetEquipmentDocument, { id: params.id })).equipment),
      {
        params: EquipmentIdParams,
        response: { 200: EquipmentRecord, 404: missing, ...authErrorResponses },
        detail: {
          summary: "Read one equipment record",
          description:
            "Scope equipment:read. Without the permission equipment.view_all only equipment " +
            'assigned to the key owner; any other id is 404. `ETag: "<version>"`.',
        },
      },
    )
    .patch(
      "/equipments/:id",
      async ({ params, body, headers, run, set }) => {
        const { updateEquipment } = await restPaths(
          run(UpdateEquipmentDocument, {
            id: params.id,
            input: body,
            expectedVersion: expectedVersion(headers["if-match"]),
          }),
        );
        return withETag(set, updateEquipment);
      },
      {
        params: EquipmentIdParams,
        body: UpdateEquipmentBody,
        headers: t.Object(IfMatchHeader),
        response: {
          200: EquipmentRecord,
          400: validation,
          404: missing,
          409: errorResponse("`Equipment is retired`: a retired record no longer changes"),
          412: stale,
          ...authErrorResponses,
        },
        detail: {
          summary: "Update an equipment record",
          description:
            "Scope equipment:write and permission equipment.manage. Give at least one field; " +
            "null clears an optional one. `If-Match` with another version → 412 " +
            "`Version mismatch`. Emits equipment.updated with the changed fields.",
        },
      },
    )
    .post(
      "/equipments/:id/retire",
      async (ctx) =>
        withETag(
          ctx.set,
          await idempotent(idempotency, ctx, async () => {
            const { retireEquipment } = await ctx.run(RetireEquipmentDocument, {
              id: ctx.params.id,
              expectedVersion: expectedVersion(ctx.headers["if-match"]),
            });
            return { status: 200, body: { ...retireEquipment } };
          }),
        ) as typeof EquipmentRecord.static,
      {
        params: EquipmentIdParams,
        headers: t.Object({
          ...IfMatchHeader,
          "idempotency-key": t.Optional(
            t.String({ description: "replays the first response for 24 h" }),
          ),
        }),
        response: {
          200: EquipmentRecord,
          404: missing,
          409: conflict,
          412: stale,
          ...authErrorResponses,
        },
        detail: {
          summary: "Retire an equipment record",
          description:
            "Scope equipment:write and permission equipment.manage. Sets status retired and " +
            "retiredAt, for good: a second retirement is 409 `Invalid status transition: " +
            "retired → retired`. Emits equipment.retired.",
        },
      },
    );

/** GET /install/:token: public, the token in the link is the credential. */
export const installRoutes = ({ limits, equipment }: Pick<Services, "limits" | "equipment">) =>
  new Elysia({ tags: ["equipment"] }).get(
    "/install/:token",
    // the link is a credential: unknown or spent links count as failed authentications
    ({ params, request, set }) => {
      set.headers["cache-control"] = "no-store"; // the URL itself is a credential
      return throttled(
        limits,
        credentialSurface,
        requestMeta(request),
        set.headers as Record<string, string>,
        () => equipment.install(params.token),
        (error) => [404, 410].includes(asApiError(error)?.status ?? 0),
      );
    },
    {
      params: t.Object({ token: t.String() }),
      response: {
        200: InstallInfo,
        404: errorResponse("Install link not found"),
        410: errorResponse("Install link expired, or an invitation link already used"),
      },
      detail: {
        summary: "Agent install link",
        description:
          "No API key: the link is the credential. Answers the equipment, the link's expiry " +
          "and the newest stable agent release for the equipment's platform. An invitation " +
          "link works once.",
        security: [],
      },
    },
  );
