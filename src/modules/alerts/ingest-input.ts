import { alertSeverityEnum } from "../../db/schema/index.ts";
import { INSTANT_FORMAT, parseInstant } from "../../input-safety.ts";
import { isUuid, Problems } from "../../validation.ts";

/** Bounds of POST /api/v1/alerts/ingest (docs/decisions.md §6; source and externalId are ours). */
export const INGEST_LIMITS = {
  batch: { min: 1, max: 100 },
  source: { min: 1, max: 100 },
  title: { min: 1, max: 200 },
  message: { max: 10_000 },
  externalId: { min: 1, max: 200 },
} as const;

export const ALERT_SEVERITIES = alertSeverityEnum.enumValues;
export type Severity = (typeof ALERT_SEVERITIES)[number];

export interface IngestAlert {
  source: string;
  title: string;
  severity: Severity;
  message: string | null;
  externalId: string | null;
  equipmentId: string | null;
  occurredAt: Date | null;
  /** the field path prefix for this alert's problems: [] for a single alert, ["alerts", i] */
  path: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads an ingest body: one alert, or `{ alerts: [...] }` with 1 to 100 of them. Every
 * problem of every alert is reported at once, each path naming the field as sent
 * (`["title"]`, or `["alerts", "3", "title"]`). Fields we do not know are ignored, so a
 * sender may include its own extras.
 */
export function parseIngestBody(body: unknown): IngestAlert[] {
  const problems = new Problems();
  if (!isObject(body)) {
    problems.add(["body"], "Must be an alert object or { alerts: [...] }").throwIfAny();
  }
  const input = body as Record<string, unknown>;
  if (!("alerts" in input)) {
    const alert = parseAlert(problems, input, []);
    problems.throwIfAny();
    return [alert];
  }
  const list = input.alerts;
  const { min, max } = INGEST_LIMITS.batch;
  if (!Array.isArray(list) || list.length < min || list.length > max) {
    problems.add(["alerts"], `Must be an array of ${min} to ${max} alerts`).throwIfAny();
  }
  const alerts = (list as unknown[]).map((item, index) => {
    const path = ["alerts", String(index)];
    if (isObject(item)) return parseAlert(problems, item, path);
    problems.add(path, "Must be an alert object");
    return undefined;
  });
  problems.throwIfAny();
  return alerts as IngestAlert[];
}

function parseAlert(problems: Problems, raw: Record<string, unknown>, path: string[]): IngestAlert {
  const at = (field: string) => [...path, field];
  /** the field as a string, or null when absent; a non-string is a problem */
  const str = (field: string, required = false) => {
    const value = raw[field];
    if (value === undefined || value === null) {
      if (required) problems.add(at(field), "Required");
      return null;
    }
    if (typeof value === "string") return value;
    problems.add(at(field), "Must be a string");
    return null;
  };
  const bounded = (field: string, required: boolean, min: number, max: number) => {
    const value = str(field, required);
    if (value !== null) problems.length(value, at(field), min, max);
    return value;
  };
  const L = INGEST_LIMITS;
  const source = bounded("source", true, L.source.min, L.source.max);
  const title = bounded("title", true, L.title.min, L.title.max);
  const message = bounded("message", false, 0, L.message.max);
  const externalId = bounded("externalId", false, L.externalId.min, L.externalId.max);
  const severity = str("severity") ?? "warning";
  problems.check(
    (ALERT_SEVERITIES as readonly string[]).includes(severity),
    at("severity"),
    `Must be one of ${ALERT_SEVERITIES.join(", ")}`,
  );
  const equipmentId = str("equipmentId");
  if (equipmentId !== null)
    problems.check(isUuid(equipmentId), at("equipmentId"), "Must be a UUID");
  const occurred = str("occurredAt");
  const occurredAt = occurred === null ? null : (parseInstant(occurred) ?? null);
  if (occurred !== null) problems.check(occurredAt !== null, at("occurredAt"), INSTANT_FORMAT);
  return {
    source: source ?? "",
    title: title ?? "",
    severity: severity as Severity,
    message,
    externalId,
    equipmentId,
    occurredAt,
    path,
  };
}
