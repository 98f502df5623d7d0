import { requireApiAccess, requirePermission, requireScope } from "../../auth/guard.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { invalidTransition, notFound, versionMismatch } from "../../errors.ts";
import { recordChange } from "../../outbox/changes.ts";
import type { WebhookEvent } from "../../outbox/events.ts";
import { isUuid, Problems } from "../../validation.ts";
import { alertEvents } from "./events.ts";
import { type AlertRow, findAlert, updateAlertRow } from "./queries.ts";

type AlertStatus = AlertRow["status"];
export type AlertMove = "acknowledge" | "resolve" | "reopen";

export const NOTE_LENGTH = { max: 10_000 } as const;

/** Each move: where it may start, where it ends, its event (docs/decisions.md §17.4). */
const MOVES: Record<
  AlertMove,
  { from: readonly AlertStatus[]; to: AlertStatus; event: WebhookEvent }
> = {
  acknowledge: { from: ["open"], to: "acknowledged", event: alertEvents.acknowledged },
  resolve: { from: ["open", "acknowledged"], to: "resolved", event: alertEvents.resolved },
  reopen: { from: ["acknowledged", "resolved"], to: "open", event: alertEvents.reopened },
};

export const alertNotFound = () => notFound("Alert not found");

/** One alert of the caller's organization (scope alerts:read, permission alerts.view). */
export async function visibleAlert(database: Database, principal: Principal, id: string) {
  requireApiAccess(principal);
  requireScope(principal, "alerts:read");
  requirePermission(principal, "alerts.view");
  const row = isUuid(id) ? await findAlert(database.db, principal.organization.id, id) : undefined;
  if (!row) throw alertNotFound();
  return row;
}

/** The columns a move sets: who and when (and why) for its end state; reopening clears them. */
function moveFields(move: AlertMove, userId: string, at: Date, note: string | null) {
  if (move === "acknowledge") {
    return { acknowledgedAt: at, acknowledgedBy: userId, acknowledgementNote: note };
  }
  if (move === "resolve") return { resolvedAt: at, resolvedBy: userId, resolutionNote: note };
  return {
    acknowledgedAt: null,
    acknowledgedBy: null,
    acknowledgementNote: null,
    resolvedAt: null,
    resolvedBy: null,
    resolutionNote: null,
  };
}

/**
 * Acknowledges, resolves or reopens an alert (scope alerts:write, permission alerts.manage):
 * the row is locked, the move checked against its status (CONFLICT otherwise), the conditional
 * update made and the move's event recorded, all in one transaction.
 */
export async function moveAlert(
  database: Database,
  now: () => Date,
  principal: Principal,
  args: { id: string; move: AlertMove; note?: string | null; expectedVersion?: number | null },
  toJson: (row: AlertRow) => Record<string, unknown>,
) {
  requireApiAccess(principal);
  requireScope(principal, "alerts:write");
  requirePermission(principal, "alerts.manage");
  const note = args.note ?? null;
  if (note !== null) {
    new Problems().length(note, ["note"], 0, NOTE_LENGTH.max).throwIfAny();
  }
  if (!isUuid(args.id)) throw alertNotFound();
  const organizationId = principal.organization.id;
  const move = MOVES[args.move];
  return database.db.transaction(async (tx) => {
    const row = await findAlert(tx, organizationId, args.id, true);
    if (!row) throw alertNotFound();
    if (args.expectedVersion != null && args.expectedVersion !== row.version)
      throw versionMismatch();
    if (!move.from.includes(row.status)) throw invalidTransition(row.status, move.to);
    const at = now();
    const updated = await updateAlertRow(tx, organizationId, row.id, row.version, {
      status: move.to,
      updatedAt: at,
      ...moveFields(args.move, principal.user.id, at, note),
    });
    if (!updated) throw versionMismatch();
    await recordChange(tx, {
      organizationId,
      event: move.event,
      data: { alert: toJson(updated) },
      now: at,
      live: { resource: "alert", record: toJson(updated) as { id: string } },
    });
    return updated;
  });
}
