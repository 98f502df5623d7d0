import { t } from "elysia";
import { enumValues } from "../../enums.ts";
import { EquipmentStatus } from "../../generated/graphql.ts";
import { ErrorSchema } from "../../http/error-schemas.ts";
import { oneOf, ResponseInt } from "../../http/list-schemas.ts";
import { EQUIPMENT_PLATFORMS, EQUIPMENT_TYPES, FIELD_LIMITS } from "./bulk-items.ts";
import { MAX_BULK_ITEMS } from "./service.ts";

/** Typebox schemas of the equipment routes (docs/api.md). */

export const STATUSES = enumValues(EquipmentStatus);

export const EquipmentJson = t.Object(
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

export const optionalText = (description: string) =>
  t.Optional(t.Nullable(t.String({ description })));

export const BulkItem = t.Object({
  name: t.String({ description: `1 to ${FIELD_LIMITS.name} characters` }),
  type: t.String({ description: `one of ${EQUIPMENT_TYPES.join(", ")}` }),
  platform: optionalText(`one of ${EQUIPMENT_PLATFORMS.join(", ")}`),
  location: optionalText(`free text, at most ${FIELD_LIMITS.location} characters`),
  unitId: optionalText("a unit of your organization"),
  managedBy: optionalText(`at most ${FIELD_LIMITS.managedBy} characters`),
  assignToUserId: optionalText("a member of your organization"),
});

export const BulkCreateBody = t.Object(
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

export const BulkCreateResult = t.Object(
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

export const InstallInfo = t.Object(
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

export const errorResponse = (description: string) => t.Composite([ErrorSchema], { description });

/** One record as GET /equipments/{id} answers it: the list's fields plus its history. */
export const EquipmentRecord = t.Object(
  {
    ...EquipmentJson.properties,
    updatedAt: t.String({ format: "date-time", description: "when a field last changed" }),
    retiredAt: t.Nullable(t.String({ format: "date-time", description: "set when retired" })),
    version: ResponseInt({ minimum: 1, description: "+1 per change; the ETag" }),
  },
  { title: "EquipmentRecord" },
);

export const UpdateEquipmentBody = t.Object(
  {
    name: t.Optional(t.String({ description: `1 to ${FIELD_LIMITS.name} characters` })),
    type: t.Optional(oneOf(EQUIPMENT_TYPES)),
    platform: t.Optional(t.Nullable(oneOf(EQUIPMENT_PLATFORMS))),
    location: optionalText(`at most ${FIELD_LIMITS.location} characters; null clears it`),
    unitId: t.Optional(t.Nullable(t.String({ format: "uuid", description: "a unit of yours" }))),
    managedBy: optionalText(`at most ${FIELD_LIMITS.managedBy} characters; null clears it`),
    assignedUserId: t.Optional(
      t.Nullable(t.String({ format: "uuid", description: "a member of your organization" })),
    ),
    status: t.Optional(
      oneOf(["pending", "online", "offline"], "retiring is POST /equipments/{id}/retire"),
    ),
  },
  { title: "UpdateEquipment", description: "at least one field" },
);

export const EquipmentIdParams = t.Object({ id: t.String({ description: "equipment id (uuid)" }) });
