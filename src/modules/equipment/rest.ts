import { Elysia, t } from "elysia";
import { asApiError } from "../../errors.ts";
import { enumValues } from "../../graphql/enums.ts";
import {
  BulkCreateEquipmentDocument,
  EquipmentStatus,
  ListEquipmentDocument,
} from "../../graphql/generated.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { idempotent } from "../../http/idempotency.ts";
import { envelope, oneOf, PageQuery, ResponseInt } from "../../http/list-schemas.ts";
import { authErrorResponses, ErrorSchema } from "../../http/openapi.ts";
import { requestMeta } from "../../http/request-context.ts";
import type { Services } from "../../services.ts";
import { EQUIPMENT_PLATFORMS, EQUIPMENT_TYPES, FIELD_LIMITS } from "./bulk-items.ts";
import { MAX_BULK_ITEMS } from "./service.ts";

const STATUSES = enumValues(EquipmentStatus);

const EquipmentJson = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    type: oneOf(EQUIPMENT_TYPES),
    platform: t.Nullable(oneOf(EQUIPMENT_PLATFORMS)),
    location: t.Nullable(t.String()),
    unitId: t.Nullable(t.String({ format: "uuid" })),
    managedBy: t.Nullable(t.String()),
    assignedUserId: t.Nullable(t.String({ format: "uuid" })),
    status: oneOf(STATUSES, "new records are pending"),
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "Equipment" },
);

const optionalText = (description: string) => t.Optional(t.Nullable(t.String({ description })));

const BulkItem = t.Object({
  name: t.String({ description: `1 to ${FIELD_LIMITS.name} characters` }),
  type: t.String({ description: `one of ${EQUIPMENT_TYPES.join(", ")}` }),
  platform: optionalText(`one of ${EQUIPMENT_PLATFORMS.join(", ")}`),
  location: optionalText(`free text, at most ${FIELD_LIMITS.location} characters`),
  unitId: optionalText("a unit of your organization"),
  managedBy: optionalText(`at most ${FIELD_LIMITS.managedBy} characters`),
  assignToUserId: optionalText("a member of your organization"),
});

const BulkCreateBody = t.Object(
  {
    items: t.Array(BulkItem, {
      minItems: 1,
      maxItems: MAX_BULK_ITEMS,
      description: `1 to ${MAX_BULK_ITEMS} records; each is checked on its own`,
    }),
    tokenKind: t.Optional(
      oneOf(
        ["bulk", "invitation"],
        "bulk (default): link reusable 7 days; invitation: one use, 30 days",
      ),
    ),
  },
  { title: "BulkCreateEquipment" },
);

const BulkCreateResult = t.Object(
  {
    requested: ResponseInt(),
    created: ResponseInt(),
    failed: ResponseInt(),
    items: t.Array(
      t.Object({
        name: t.String(),
        id: t.String({ format: "uuid" }),
        installUrl: t.String({ format: "uri", description: "agent install link" }),
      }),
    ),
    errors: t.Array(
      t.Object({
        index: ResponseInt({ description: "position in the request, from 0" }),
        name: t.Nullable(t.String()),
        error: t.String({ description: "field and problem, e.g. `unitId: No unit with this id…`" }),
      }),
    ),
  },
  { title: "BulkCreateResult" },
);

const InstallInfo = t.Object(
  {
    equipmentId: t.String({ format: "uuid" }),
    equipmentName: t.String(),
    platform: t.Nullable(t.String()),
    tokenKind: oneOf(["bulk", "invitation"]),
    expiresAt: t.String({ format: "date-time", description: "when the link stops working" }),
    agentRelease: t.Nullable(
      t.Object(
        {
          id: t.String(),
          version: t.String(),
          platform: t.String(),
          architecture: t.String(),
          channel: t.String(),
          releasedAt: t.String({ format: "date-time" }),
          downloadUrl: t.String(),
          sha256: t.String(),
        },
        { description: "newest stable release for the equipment's platform; null if none" },
      ),
    ),
  },
  { title: "InstallInfo" },
);

const errorResponse = (description: string) => t.Composite([ErrorSchema], { description });

/** GET /api/v1/equipments and POST /api/v1/equipments/bulk-create. */
export const equipmentRoutes = ({ auth, idempotency }: RestDeps) =>
  new Elysia({ prefix: "/api/v1", tags: ["equipment"] })
    .use(apiKeyAuth(auth))
    .get(
      "/equipments",
      async ({ query, run }) => (await run(ListEquipmentDocument, query)).equipments,
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

/** GET /install/:token: public, the token in the link is the credential. */
export const installRoutes = ({ limits, equipment }: Pick<Services, "limits" | "equipment">) =>
  new Elysia({ tags: ["equipment"] }).get(
    "/install/:token",
    // the link is a credential: unknown or spent links count as failed authentications
    ({ params, request, set }) => {
      set.headers["cache-control"] = "no-store"; // the URL itself is a credential
      return limits.throttle(
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
