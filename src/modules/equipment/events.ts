import { Type as t } from "@sinclair/typebox";
import { defineWebhookEvent } from "../../outbox/events.ts";

/** The record as `GET /api/v1/equipments/{id}` answers it (its OpenAPI component; docs/webhooks.md). */
const Equipment = t.Unsafe<Record<string, unknown>>({
  $ref: "#/components/schemas/EquipmentRecord",
  description: "the record, as GET answers it",
});
const Changes = t.Record(
  t.String(),
  t.Object({ from: t.Unknown(), to: t.Unknown() }, { title: "FieldChange" }),
);

const event = <P extends Parameters<typeof defineWebhookEvent>[0]["payload"]>(
  type: string,
  payload: P,
) => defineWebhookEvent({ type, readScope: "equipment:read", payload });

/** The webhook events the equipment feature emits (docs/webhooks.md). */
export const equipmentEvents = {
  /** one per record of a bulk creation */
  created: event("equipment.created", t.Object({ equipment: Equipment })),
  updated: event("equipment.updated", t.Object({ equipment: Equipment, changes: Changes })),
  retired: event("equipment.retired", t.Object({ equipment: Equipment })),
};
