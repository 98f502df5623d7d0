import { equipmentPlatformEnum, equipmentTypeEnum } from "../../db/schema/index.ts";
import type { BulkEquipmentItem } from "../../generated/schema.ts";
import { isUuid } from "../../validation.ts";

export const EQUIPMENT_TYPES = equipmentTypeEnum.enumValues;
export const EQUIPMENT_PLATFORMS = equipmentPlatformEnum.enumValues;
export const FIELD_LIMITS = { name: 200, location: 500, managedBy: 200 } as const;

type EquipmentType = (typeof EQUIPMENT_TYPES)[number];
type EquipmentPlatform = (typeof EQUIPMENT_PLATFORMS)[number];

/** One bulk-create item as received (REST and GraphQL): type and platform unchecked strings. */
export interface ValidItem {
  index: number;
  item: {
    name: string;
    type: EquipmentType;
    platform: EquipmentPlatform | null;
    location: string | null;
    unitId: string | null;
    managedBy: string | null;
    assignToUserId: string | null;
  };
}

export interface ItemError {
  index: number;
  name: string | null;
  /** the first problem of the item, naming the field */
  error: string;
  /** the same problem as a validation detail: the field's path and the message alone */
  path: string[];
  message: string;
}

const chars = (value: string) => [...value].length;
const isType = (value: string): value is EquipmentType =>
  (EQUIPMENT_TYPES as readonly string[]).includes(value);
const isPlatform = (value: string): value is EquipmentPlatform =>
  (EQUIPMENT_PLATFORMS as readonly string[]).includes(value);

/**
 * Splits bulk items into valid ones and failures. `units` / `members` are the ids that exist in
 * the caller's organization (looked up once for the whole batch), so another organization's
 * unit or user fails exactly like one that does not exist.
 */
export function checkItems(
  items: BulkEquipmentItem[],
  known: { units: ReadonlySet<string>; members: ReadonlySet<string> },
): { valid: ValidItem[]; errors: ItemError[] } {
  const valid: ValidItem[] = [];
  const errors: ItemError[] = [];
  items.forEach((item, index) => {
    const problem = firstProblem(item, known);
    if (problem) {
      errors.push({
        index,
        name: typeof item.name === "string" ? item.name : null,
        error: `${problem.field}: ${problem.message}`,
        path: ["items", String(index), problem.field],
        message: problem.message,
      });
      return;
    }
    valid.push({
      index,
      item: {
        name: item.name.trim(),
        type: item.type as EquipmentType,
        platform: (item.platform ?? null) as EquipmentPlatform | null,
        location: item.location ?? null,
        unitId: item.unitId ?? null,
        managedBy: item.managedBy ?? null,
        assignToUserId: item.assignToUserId ?? null,
      },
    });
  });
  return { valid, errors };
}

function firstProblem(
  item: BulkEquipmentItem,
  known: { units: ReadonlySet<string>; members: ReadonlySet<string> },
): { field: string; message: string } | undefined {
  const name = item.name.trim();
  if (chars(name) < 1 || chars(name) > FIELD_LIMITS.name) {
    return { field: "name", message: `Must be 1 to ${FIELD_LIMITS.name} characters` };
  }
  if (!isType(item.type)) {
    return { field: "type", message: `Must be one of: ${EQUIPMENT_TYPES.join(", ")}` };
  }
  if (item.platform != null && !isPlatform(item.platform)) {
    return { field: "platform", message: `Must be one of: ${EQUIPMENT_PLATFORMS.join(", ")}` };
  }
  if (item.location != null && chars(item.location) > FIELD_LIMITS.location) {
    return { field: "location", message: `Must be at most ${FIELD_LIMITS.location} characters` };
  }
  if (item.managedBy != null && chars(item.managedBy) > FIELD_LIMITS.managedBy) {
    return { field: "managedBy", message: `Must be at most ${FIELD_LIMITS.managedBy} characters` };
  }
  if (item.unitId != null && !(isUuid(item.unitId) && known.units.has(item.unitId))) {
    return { field: "unitId", message: "No unit with this id in your organization" };
  }
  if (
    item.assignToUserId != null &&
    !(isUuid(item.assignToUserId) && known.members.has(item.assignToUserId))
  ) {
    return { field: "assignToUserId", message: "Not a member of your organization" };
  }
  return undefined;
}
