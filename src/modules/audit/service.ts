import { requireApiAccess, requirePermission, requireScope } from "../../auth/guard.ts";
import type { Plan } from "../../auth/permissions.ts";
import type { Member, Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { dayOf } from "../../db/queries/audit-partitions.ts";
import { forbidden, notFound } from "../../errors.ts";
import { isUuid } from "../../validation.ts";
import { keyById } from "../settings/queries.ts";
import type { MemberKeyService } from "../settings/service.ts";
import { type AuditLogArgs, encodeCursor, parseExportRange, parseListArgs } from "./filters.ts";
import { type AuditCursor, type AuditEntryRow, exportAuditBatch, listAuditLog } from "./queries.ts";
import { keyUsage } from "./usage-queries.ts";

/** How long each plan's trail is kept (docs/security.md#audit-trail, docs/decisions.md §15). */
export const AUDIT_RETENTION_DAYS: Record<Plan, number> = { FREE: 7, PRO: 90, ENTERPRISE: 400 };
const DAY_MS = 86_400_000;
const USAGE_DAYS = 30;
const EXPORT_BATCH = 1_000;

/** One entry as GraphQL and REST show it (the SDL's AuditEntry). */
export const auditEntry = (row: AuditEntryRow) => ({
  id: row.id,
  at: row.at,
  kind: row.kind,
  keyId: row.apiKeyId,
  userId: row.userId,
  method: row.method,
  route: row.route,
  status: row.status,
  durationMs: row.durationMs,
  ip: row.ip,
  userAgent: row.userAgent,
  requestId: row.requestId,
  detail: row.detail ? JSON.stringify(row.detail) : null,
});

/** Where the next page starts: after `row`. */
const cursorAfter = (row: AuditEntryRow) => ({ at: row.at, id: row.rowId, ord: row.ord });

/**
 * Reading the trail: members holding `audit.view` on an ADMIN seat, through a key with scope
 * `audit:read`; always their own organization's rows only. A key's owner (or an ADMIN) also
 * sees that key's usage on the settings screen.
 */
export class AuditService {
  constructor(
    private readonly database: Database,
    private readonly memberKeys: Pick<MemberKeyService, "organizations">,
    /** the route templates a `route` filter may name: the app's, filled once they are mounted */
    private readonly routes: ReadonlySet<string>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private requireReader(principal: Principal): void {
    requireApiAccess(principal);
    requireScope(principal, "audit:read");
    requirePermission(principal, "audit.view");
    if (principal.seat !== "ADMIN")
      throw forbidden("Reading the audit log requires an administrator seat");
  }

  /** Newest first; `nextCursor` is null on the last page. */
  async list(principal: Principal, args: AuditLogArgs) {
    this.requireReader(principal);
    const { filter, after, limit } = parseListArgs(args, this.routes);
    const rows = await listAuditLog(
      this.database.db,
      principal.organization.id,
      filter,
      after,
      limit + 1,
      this.now(),
    );
    const more = rows.length > limit;
    const data = more ? rows.slice(0, limit) : rows;
    const last = data.at(-1);
    return {
      data: data.map(auditEntry),
      nextCursor: more && last ? encodeCursor(cursorAfter(last)) : null,
    };
  }

  /**
   * NDJSON of [from, to), oldest first, read a batch at a time as the client takes it: the
   * answer is a stream, never built in memory. Bad input is refused before the first byte.
   */
  export(principal: Principal, query: { from?: string | null; to?: string | null }) {
    this.requireReader(principal);
    const range = parseExportRange(query);
    const organizationId = principal.organization.id;
    const db = this.database.db;
    const encoder = new TextEncoder();
    let cursor: AuditCursor | undefined;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const rows = await exportAuditBatch(db, organizationId, range, cursor, EXPORT_BATCH);
        if (rows.length > 0) {
          const lines = rows.map((row) => {
            const entry = { ...auditEntry(row), detail: row.detail ?? null };
            return `${JSON.stringify(entry)}\n`;
          });
          controller.enqueue(encoder.encode(lines.join("")));
          cursor = cursorAfter(rows[rows.length - 1] as AuditEntryRow);
        }
        if (rows.length < EXPORT_BATCH) controller.close();
      },
    });
  }

  /**
   * The settings screen's usage of one key: its last request (time and address), requests in
   * the last 24 h, and a count per UTC day over the last 30 days (oldest first). The key's
   * owner or an ADMIN seat of its organization; anyone else gets "not found".
   */
  async keyUsageForMember(member: Member, keyId: string) {
    const key = isUuid(keyId) ? await keyById(this.database.db, keyId) : undefined;
    const orgs = key ? await this.memberKeys.organizations(member) : [];
    const org = orgs.find((o) => o.id === key?.organizationId);
    if (!key || !org || (key.userId !== member.userId && org.seat !== "ADMIN")) {
      throw notFound("API key not found");
    }
    const now = this.now().getTime();
    const firstDay = dayOf(now) - (USAGE_DAYS - 1) * DAY_MS;
    const usage = await keyUsage(
      this.database.db,
      org.id,
      key.id,
      new Date(firstDay),
      new Date(now - DAY_MS),
    );
    const daily = Array.from({ length: USAGE_DAYS }, (_, i) => {
      const day = firstDay + i * DAY_MS;
      return { day: new Date(day).toISOString().slice(0, 10), count: usage.daily.get(day) ?? 0 };
    });
    return {
      keyId: key.id,
      name: key.name,
      organizationId: org.id,
      lastUsedAt: usage.last?.at ?? null,
      lastUsedIp: usage.last?.ip ?? null,
      requestsLast24h: usage.lastDay,
      daily,
    };
  }
}
