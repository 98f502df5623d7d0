import { requireApiAccess, requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { alertStatusEnum } from "../../db/schema/index.ts";
import { forbidden, validationFailed } from "../../errors.ts";
import { recordChange } from "../../outbox/changes.ts";
import type { LiveHub } from "../../outbox/live.ts";
import { liveFilter } from "../../outbox/live-filters.ts";
import { alertEvents } from "./events.ts";
import { parseIngestBody } from "./ingest-input.ts";
import { type AlertMove, moveAlert, visibleAlert } from "./moves.ts";
import {
  type AlertRow,
  alertIdsByExternalKey,
  existingEquipmentIds,
  externalKey,
  insertAlertsSkippingDuplicates,
  listAlerts,
  type NewAlert,
  organizationForAddress,
} from "./queries.ts";

export const ALERT_STATUSES = alertStatusEnum.enumValues;

export interface AlertFilters extends PageArgs {
  /** GraphQL enums (AlertStatus, AlertSeverity): only known values arrive here */
  status?: AlertRow["status"] | null;
  severity?: AlertRow["severity"] | null;
}

export interface IngestResult {
  received: number;
  created: number;
  duplicates: number;
  /** one id per received alert, in order; a duplicate gets the id of the alert it repeats */
  ids: string[];
}

export const alertJson = (row: AlertRow) => ({
  id: row.id,
  source: row.source,
  externalId: row.externalId,
  severity: row.severity,
  status: row.status,
  title: row.title,
  message: row.message,
  equipmentId: row.equipmentId,
  occurredAt: row.occurredAt,
  receivedAt: row.receivedAt,
  acknowledgedAt: row.acknowledgedAt,
  acknowledgedBy: row.acknowledgedBy,
  acknowledgementNote: row.acknowledgementNote,
  resolvedAt: row.resolvedAt,
  resolvedBy: row.resolvedBy,
  resolutionNote: row.resolutionNote,
  updatedAt: row.updatedAt,
  version: row.version,
});

/** An alert as GET /api/v1/alerts/{id} answers it and as events carry it (JSON dates). */
export const alertRecordJson = (row: AlertRow) =>
  JSON.parse(JSON.stringify(alertJson(row))) as Record<string, unknown>;

const IP_NOT_ALLOWED = "IP not allowed";

export class AlertService {
  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
    private readonly live?: LiveHub,
  ) {}

  /** Live changes of the organization's alerts (scope alerts:read, permission alerts.view). */
  events(principal: Principal, args: { alertId?: string | null; types?: string[] | null }) {
    const allowed = (caller: Principal) => {
      requireApiAccess(caller);
      requireScope(caller, "alerts:read");
      requirePermission(caller, "alerts.view");
    };
    allowed(principal);
    if (!this.live) throw new Error("no live hub");
    const keep = liveFilter({ id: args.alertId, types: args.types });
    return this.live.subscribe("alert", principal, { allowed, keep: (event) => keep(event) });
  }

  /** Scope alerts:read and permission alerts.view; newest received first. */
  async list(principal: Principal, args: AlertFilters) {
    requireApiAccess(principal);
    requireScope(principal, "alerts:read");
    requirePermission(principal, "alerts.view");
    const window = pageWindow(args);
    const page = await listAlerts(
      this.database.db,
      { organizationId: principal.organization.id, status: args.status, severity: args.severity },
      window,
    );
    return { data: page.data.map(alertJson), pagination: page.pagination };
  }

  async get(principal: Principal, id: string) {
    return alertJson(await visibleAlert(this.database, principal, id));
  }

  /** acknowledge, resolve or reopen (docs/decisions.md §17.4) */
  async move(
    principal: Principal,
    args: { id: string; move: AlertMove; note?: string | null; expectedVersion?: number | null },
  ) {
    return alertJson(await moveAlert(this.database, this.now, principal, args, alertRecordJson));
  }

  /**
   * POST /alerts/ingest. There is no key: the caller's address must fall in an ingest source
   * of an organization, which also names the organization. The whole body is checked before
   * anything is stored; an equipmentId unknown to that organization is a field problem (an
   * id of another organization looks exactly the same). Duplicates (same source and
   * externalId as a stored alert, or as an earlier alert of the same batch) are not stored
   * again; their position in `ids` holds the id of the alert they repeat.
   */
  async ingest(clientIp: string | undefined, body: unknown): Promise<IngestResult> {
    const db = this.database.db;
    const organization = clientIp ? await organizationForAddress(db, clientIp) : undefined;
    if (!organization) throw forbidden(IP_NOT_ALLOWED);
    if (organization.plan === "FREE") throw forbidden("API access requires the Pro plan");
    const items = parseIngestBody(body);
    const wanted = [...new Set(items.flatMap((item) => item.equipmentId ?? []))];
    const known = await existingEquipmentIds(db, organization.id, wanted);
    const unknown = items.filter((item) => item.equipmentId && !known.has(item.equipmentId));
    if (unknown.length > 0) {
      throw validationFailed(
        unknown.map((item) => ({
          path: [...item.path, "equipmentId"],
          message: "Unknown equipment",
        })),
      );
    }

    const receivedAt = this.now();
    // the first alert of a batch with a given source + externalId stands for its repeats
    const firstOfKey = new Map<string, number>();
    const ids: string[] = [];
    const rows: NewAlert[] = [];
    items.forEach((item, index) => {
      const key = item.externalId === null ? null : externalKey(item.source, item.externalId);
      const first = key === null ? undefined : firstOfKey.get(key);
      if (first !== undefined) {
        ids.push(ids[first] as string);
        return;
      }
      if (key !== null) firstOfKey.set(key, index);
      const id = crypto.randomUUID();
      ids.push(id);
      rows.push({
        id,
        organizationId: organization.id,
        source: item.source,
        externalId: item.externalId,
        severity: item.severity,
        title: item.title,
        message: item.message,
        equipmentId: item.equipmentId,
        occurredAt: item.occurredAt,
        receivedAt,
        updatedAt: receivedAt,
      });
    });
    // alert.created once per alert stored now, in the insert's own transaction
    const inserted = await db.transaction(async (tx) => {
      const stored = await insertAlertsSkippingDuplicates(tx, rows);
      for (const row of stored) {
        await recordChange(tx, {
          organizationId: organization.id,
          event: alertEvents.created,
          data: { alert: alertRecordJson(row) },
          now: receivedAt,
          live: { resource: "alert", record: alertJson(row) },
        });
      }
      return new Set(stored.map((row) => row.id));
    });
    // rows not inserted repeat an alert stored earlier (or concurrently): answer its id
    const skipped = rows.filter((row) => !inserted.has(row.id));
    if (skipped.length > 0) {
      const existing = await alertIdsByExternalKey(
        db,
        organization.id,
        skipped.map((row) => ({ source: row.source, externalId: row.externalId as string })),
      );
      const replace = new Map(
        skipped.map((row) => [
          row.id,
          existing.get(externalKey(row.source, row.externalId as string)) ?? row.id,
        ]),
      );
      for (let i = 0; i < ids.length; i++)
        ids[i] = replace.get(ids[i] as string) ?? (ids[i] as string);
    }
    return {
      received: items.length,
      created: inserted.size,
      duplicates: items.length - inserted.size,
      ids,
    };
  }
}
