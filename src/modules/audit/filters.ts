/**
 * The audit log's filters and cursor, checked once for GraphQL and REST: every bad value is a
 * 400 `Validation failed` naming its field (docs/api.md#audit-log).
 */
import { isIP } from "node:net";
import { PAGE_LIMIT } from "../../db/paging.ts";
import type { AuditLogFilter } from "../../generated/schema.ts";
import { isUuid, Problems } from "../../validation.ts";
import type { AuditCursor, AuditFilter } from "./queries.ts";

export type { AuditCursor, AuditFilter };

export interface AuditLogArgs {
  filter?: AuditLogFilter | null;
  after?: string | null;
  limit?: number | null;
}

export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;
/** The widest export: a month a request keeps the stream's work bounded */
export const MAX_EXPORT_DAYS = 31;

/** An RFC 3339 date-time with its zone, or a plain date (midnight UTC). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/i;

function parseDate(value: string, path: string[], problems: Problems): Date | undefined {
  const at = DATE_TIME.test(value) ? new Date(value) : undefined;
  if (at && !Number.isNaN(at.getTime())) return at;
  problems.add(path, "Must be a date-time with a time zone, e.g. 2026-05-01T00:00:00Z");
  return undefined;
}

export const encodeCursor = (c: AuditCursor) =>
  Buffer.from(`${c.at.getTime()}:${c.id}:${c.ord}`).toString("base64url");

/** `at:id:ord`; `at:id`, given out before rows held several requests, is its row's only entry. */
function decodeCursor(text: string): AuditCursor | undefined {
  const match = /^(\d{1,15}):(\d{1,15})(?::(\d{1,4}))?$/.exec(
    Buffer.from(text, "base64url").toString(),
  );
  if (!match || text.length > 64) return undefined;
  return { at: new Date(Number(match[1])), id: Number(match[2]), ord: Number(match[3] ?? 1) };
}

/** Checks a filter; `knownRoutes` are the route templates the service answers. */
export function parseFilter(
  input: AuditLogFilter | null | undefined,
  knownRoutes: ReadonlySet<string>,
  problems: Problems,
  prefix: string[] = ["filter"],
): AuditFilter {
  const f = input ?? {};
  const out: AuditFilter = {};
  const at = (field: string) => [...prefix, field];
  if (f.keyId != null) {
    if (isUuid(f.keyId)) out.keyId = f.keyId.toLowerCase();
    else problems.add(at("keyId"), "Must be an API key id (a UUID)");
  }
  if (f.userId != null) {
    if (isUuid(f.userId)) out.userId = f.userId.toLowerCase();
    else problems.add(at("userId"), "Must be a user id (a UUID)");
  }
  if (f.route != null) {
    if (knownRoutes.has(f.route)) out.route = f.route;
    else
      problems.add(at("route"), "Unknown route: give a route template such as /api/v1/tickets/:id");
  }
  if (f.statusClass != null) {
    const index = (STATUS_CLASSES as readonly string[]).indexOf(f.statusClass.toLowerCase());
    if (index >= 0) out.statusClass = index + 1;
    else problems.add(at("statusClass"), `Must be one of ${STATUS_CLASSES.join(", ")}`);
  }
  if (f.ip != null) {
    if (isIP(f.ip)) out.ip = f.ip;
    else problems.add(at("ip"), "Must be an IPv4 or IPv6 address");
  }
  if (f.from != null) out.from = parseDate(f.from, at("from"), problems);
  if (f.to != null) out.to = parseDate(f.to, at("to"), problems);
  if (out.from && out.to && out.from > out.to) problems.add(at("to"), "Must not be before from");
  return out;
}

/** The page arguments: filter, cursor and limit (1 to 200, default 50). */
export function parseListArgs(args: AuditLogArgs, knownRoutes: ReadonlySet<string>) {
  const problems = new Problems();
  const filter = parseFilter(args.filter, knownRoutes, problems);
  let after: AuditCursor | undefined;
  if (args.after != null) {
    after = decodeCursor(args.after);
    if (!after) problems.add(["after"], "Not a cursor of this list: pass nextCursor as it came");
  }
  const limit = args.limit ?? PAGE_LIMIT.default;
  problems.check(
    Number.isInteger(limit) && limit >= PAGE_LIMIT.min && limit <= PAGE_LIMIT.max,
    ["limit"],
    `Must be ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}`,
  );
  problems.throwIfAny();
  return { filter, after, limit };
}

/** An export's range: both ends required, `from` ≤ `to`, at most MAX_EXPORT_DAYS apart. */
export function parseExportRange(query: { from?: string | null; to?: string | null }) {
  const problems = new Problems();
  problems.check(query.from != null, ["from"], "Required: the first instant to export");
  problems.check(query.to != null, ["to"], "Required: the instant the export ends (excluded)");
  const filter = parseFilter({ from: query.from, to: query.to }, new Set(), problems, []);
  if (filter.from && filter.to) {
    const days = (filter.to.getTime() - filter.from.getTime()) / 86_400_000;
    problems.check(days <= MAX_EXPORT_DAYS, ["to"], `At most ${MAX_EXPORT_DAYS} days after from`);
  }
  problems.throwIfAny();
  return { from: filter.from as Date, to: filter.to as Date };
}
