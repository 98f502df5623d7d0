import { pgEnum } from "drizzle-orm/pg-core";
import { enumValues } from "../../enums.ts";
import {
  AlertSeverity,
  AlertStatus,
  ChangeOp,
  ChangeType,
  EnrollmentTokenKind,
  EquipmentPlatform,
  EquipmentStatus,
  EquipmentType,
  Plan,
  Seat,
  TicketPriority,
  TicketStatus,
} from "../../generated/graphql.ts";

/**
 * The SDL (schema/*.graphql) is the one source of every enum: `npm run codegen` writes each as
 * a constant in the SDL's order, and the Postgres enums take their values from it. A value
 * added to the SDL then needs `npm run db:generate` (CI fails while drizzle/ lags behind).
 */
export const planEnum = pgEnum("plan", enumValues(Plan));
export const seatEnum = pgEnum("seat", enumValues(Seat));
export const equipmentTypeEnum = pgEnum("equipment_type", enumValues(EquipmentType));
export const equipmentPlatformEnum = pgEnum("equipment_platform", enumValues(EquipmentPlatform));
export const equipmentStatusEnum = pgEnum("equipment_status", enumValues(EquipmentStatus));
export const ticketStatusEnum = pgEnum("ticket_status", enumValues(TicketStatus));
export const ticketPriorityEnum = pgEnum("ticket_priority", enumValues(TicketPriority));
export const alertSeverityEnum = pgEnum("alert_severity", enumValues(AlertSeverity));
export const alertStatusEnum = pgEnum("alert_status", enumValues(AlertStatus));
export const tokenKindEnum = pgEnum("enrollment_token_kind", enumValues(EnrollmentTokenKind));
export const changeTypeEnum = pgEnum("change_type", enumValues(ChangeType));
export const changeOpEnum = pgEnum("change_op", enumValues(ChangeOp));
