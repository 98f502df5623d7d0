import {
  hasPermission,
  requireApiAccess,
  requirePermission,
  requireScope,
} from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { ApiError, invalidTransition, notFound, versionMismatch } from "../../errors.ts";
import type { UpdateEquipmentInput } from "../../generated/schema.ts";
import { recordChange } from "../../outbox/changes.ts";
import { isUuid, Problems } from "../../validation.ts";
import { FIELD_LIMITS } from "./bulk-items.ts";
import { equipmentEvents } from "./events.ts";
import { equipmentJson } from "./json.ts";
import {
  type EquipmentRow,
  existingUnitIds,
  findEquipment,
  memberUserIds,
  updateEquipmentRow,
} from "./queries.ts";

const FIELDS = [
  "name",
  "type",
  "platform",
  "location",
  "unitId",
  "managedBy",
  "assignedUserId",
  "status",
] as const;
const REQUIRED = ["name", "type", "status"] as const;

export const equipmentNotFound = () => notFound("Equipment not found");

const canSee = (principal: Principal, row: EquipmentRow | undefined): row is EquipmentRow =>
  row !== undefined &&
  (hasPermission(principal, "equipment.view_all") || row.assignedUserId === principal.user.id);

/** One record the caller can see (scope equipment:read; view_all or assigned to them). */
export async function visibleEquipment(database: Database, principal: Principal, id: string) {
  requireApiAccess(principal);
  requireScope(principal, "equipment:read");
  const row = isUuid(id)
    ? await findEquipment(database.db, principal.organization.id, id)
    : undefined;
  if (!canSee(principal, row)) throw equipmentNotFound();
  return row;
}

async function checkInput(database: Database, organizationId: string, input: UpdateEquipmentInput) {
  const problems = new Problems();
  const given = FIELDS.filter((field) => input[field] !== undefined);
  problems.check(given.length > 0, ["input"], `Give at least one of ${FIELDS.join(", ")}`);
  for (const field of REQUIRED) {
    if (input[field] === null) problems.add(["input", field], "Must not be null");
  }
  if (typeof input.name === "string") {
    input.name = input.name.trim();
    problems.length(input.name, ["input", "name"], 1, FIELD_LIMITS.name);
  }
  for (const field of ["location", "managedBy"] as const) {
    const value = input[field];
    if (typeof value === "string") problems.length(value, ["input", field], 0, FIELD_LIMITS[field]);
  }
  if (input.status === "retired") {
    problems.add(["input", "status"], "Retire equipment with its retire operation");
  }
  const { unitId, assignedUserId } = input;
  if (typeof unitId === "string") {
    const known = isUuid(unitId) && (await existingUnitIds(database.db, organizationId, [unitId]));
    problems.check(
      !!known && known.has(unitId),
      ["input", "unitId"],
      "No unit with this id in your organization",
    );
  }
  if (typeof assignedUserId === "string") {
    const members =
      isUuid(assignedUserId) &&
      (await memberUserIds(database.db, organizationId, [assignedUserId]));
    problems.check(
      !!members && members.has(assignedUserId),
      ["input", "assignedUserId"],
      "Not a member of your organization",
    );
  }
  problems.throwIfAny();
  return given;
}

/**
 * Updates or retires a record (scope equipment:write, permission equipment.manage): the row is
 * locked, the version and state checked, the conditional update made and the event recorded,
 * in one transaction (docs/decisions.md §17.2, §17.3).
 */
export async function changeEquipment(
  database: Database,
  now: () => Date,
  principal: Principal,
  args: { id: string; input?: UpdateEquipmentInput; expectedVersion?: number | null },
) {
  requireApiAccess(principal);
  requireScope(principal, "equipment:write");
  requirePermission(principal, "equipment.manage");
  const organizationId = principal.organization.id;
  const retire = args.input === undefined;
  const input = args.input ?? {};
  const given = retire ? [] : await checkInput(database, organizationId, input);
  if (!isUuid(args.id)) throw equipmentNotFound();
  return database.db.transaction(async (tx) => {
    const row = await findEquipment(tx, organizationId, args.id, true);
    if (!canSee(principal, row)) throw equipmentNotFound();
    if (args.expectedVersion != null && args.expectedVersion !== row.version)
      throw versionMismatch();
    if (row.status === "retired") {
      if (retire) throw invalidTransition("retired", "retired");
      throw new ApiError("CONFLICT", "Equipment is retired");
    }
    const at = now();
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const values: Partial<EquipmentRow> = retire ? { status: "retired", retiredAt: at } : {};
    if (retire) changes.status = { from: row.status, to: "retired" };
    for (const field of given) {
      const to = input[field] ?? null;
      if (to === row[field]) continue;
      changes[field] = { from: row[field], to };
      Object.assign(values, { [field]: to });
    }
    if (Object.keys(changes).length === 0) return row;
    const updated = await updateEquipmentRow(tx, organizationId, row.id, row.version, {
      ...values,
      updatedAt: at,
    });
    if (!updated) throw versionMismatch();
    await recordChange(tx, {
      organizationId,
      event: retire ? equipmentEvents.retired : equipmentEvents.updated,
      data: { equipment: equipmentJson(updated) },
      changes: retire ? undefined : changes,
      now: at,
      live: { resource: "equipment", record: updated },
    });
    return updated;
  });
}
