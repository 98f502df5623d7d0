import { pgEnum } from "drizzle-orm/pg-core";

export const planEnum = pgEnum("plan", ["FREE", "PRO", "ENTERPRISE"]);
export const seatEnum = pgEnum("seat", ["ADMIN", "TECHNICIAN", "USER"]);
export const equipmentTypeEnum = pgEnum("equipment_type", [
  "workstation",
  "laptop",
  "server",
  "virtual_machine",
  "mobile",
  "network_device",
  "printer",
  "other",
]);
export const equipmentPlatformEnum = pgEnum("equipment_platform", [
  "windows",
  "macos",
  "linux",
  "ios",
  "android",
  "other",
]);
export const equipmentStatusEnum = pgEnum("equipment_status", [
  "pending",
  "online",
  "offline",
  "retired",
]);
export const ticketStatusEnum = pgEnum("ticket_status", [
  "open",
  "in_progress",
  "resolved",
  "closed",
]);
export const ticketPriorityEnum = pgEnum("ticket_priority", ["low", "medium", "high", "critical"]);
export const alertSeverityEnum = pgEnum("alert_severity", ["info", "warning", "critical"]);
export const alertStatusEnum = pgEnum("alert_status", ["open", "acknowledged", "resolved"]);
export const tokenKindEnum = pgEnum("enrollment_token_kind", ["bulk", "invitation"]);
