import {
  hasPermission,
  requireApiAccess,
  requirePermission,
  requireScope,
} from "../../auth/guard.ts";
import type { Permission, Scope } from "../../auth/permissions.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { ApiError } from "../../errors.ts";
import type { ChangeOp, ChangeType } from "../../generated/graphql.ts";
import { Problems } from "../../validation.ts";
import {
  alertsByIds,
  type ChangeRow,
  equipmentByIds,
  isBefore,
  type Position,
  readChanges,
  SEQ_MAX,
  ticketsByIds,
} from "./queries.ts";
import { decodeToken, encodeToken } from "./token.ts";

/** Page size of the change feed (docs/api.md). */
export const CHANGE_LIMIT = { min: 1, max: 1000, default: 100 } as const;
export const CHANGE_TYPES = ["tickets", "alerts", "equipment"] as const satisfies ChangeType[];

/** What reading each type takes: its list's scope (and permission), and who is owner-only. */
const RULES: Record<ChangeType, { scope: Scope; permission?: Permission; viewAll?: Permission }> = {
  tickets: { scope: "tickets:read", viewAll: "tickets.view_all" },
  alerts: { scope: "alerts:read", permission: "alerts.view" },
  equipment: { scope: "equipment:read", viewAll: "equipment.view_all" },
};

const TYPENAME = {
  tickets: "Ticket",
  alerts: "Alert",
  equipment: "Equipment",
} as const satisfies Record<ChangeType, string>;
/** a loaded record with its GraphQL type name (the union ChangeRecord resolves by it) */
type TypedRecord = Record<string, unknown> & { __typename: (typeof TYPENAME)[ChangeType] };

export interface ChangeArgs {
  types?: ChangeType[] | null;
  since?: string | null;
  limit?: number | null;
}

export interface Change {
  type: ChangeType;
  id: string;
  op: ChangeOp;
  at: Date;
  /** the row with its GraphQL type name, null for a delete */
  record: TypedRecord | null;
}

const mayRead = (principal: Principal, type: ChangeType) => {
  const rule = RULES[type];
  return (
    principal.apiKey.scopes.includes(rule.scope) &&
    (!rule.permission || hasPermission(principal, rule.permission))
  );
};

/** The change feed's rules (docs/decisions.md §12), for REST and GraphQL. */
export class ChangeService {
  constructor(private readonly database: Database) {}

  async list(principal: Principal, args: ChangeArgs) {
    requireApiAccess(principal);
    const limit = args.limit ?? CHANGE_LIMIT.default;
    new Problems()
      .check(
        Number.isInteger(limit) && limit >= CHANGE_LIMIT.min && limit <= CHANGE_LIMIT.max,
        ["limit"],
        `Must be an integer from ${CHANGE_LIMIT.min} to ${CHANGE_LIMIT.max}`,
      )
      .throwIfAny();
    const types = this.types(principal, args.types);
    const since = args.since ?? null;
    const after = decodeToken(since);
    const organizationId = principal.organization.id;
    const ownerOf: Partial<Record<ChangeType, string>> = {};
    for (const type of types) {
      const viewAll = RULES[type].viewAll;
      if (viewAll && !hasPermission(principal, viewAll)) ownerOf[type] = principal.user.id;
    }
    const db = this.database.db;
    const read = await readChanges(db, { organizationId, types, ownerOf }, after, limit + 1);
    // a change after the token was removed: the caller would never learn of it
    if (since !== null && isBefore(after, read.horizon)) {
      throw new ApiError("GONE", "Sync token expired");
    }
    const hasMore = read.rows.length > limit;
    const rows = read.rows.slice(0, limit);
    return {
      data: await this.resolve(organizationId, ownerOf, rows),
      next: encodeToken(this.next(rows, hasMore, after, read.xmin)),
      hasMore,
    };
  }

  /** Asked types each need their read rights (403 naming the first missing); none asked: all readable. */
  private types(principal: Principal, asked: ChangeType[] | null | undefined): ChangeType[] {
    if (asked && asked.length > 0) {
      const types = CHANGE_TYPES.filter((type) => asked.includes(type));
      for (const type of types) {
        requireScope(principal, RULES[type].scope);
        const permission = RULES[type].permission;
        if (permission) requirePermission(principal, permission);
      }
      return types;
    }
    const readable = CHANGE_TYPES.filter((type) => mayRead(principal, type));
    if (readable.length === 0) requireScope(principal, RULES.tickets.scope);
    return readable;
  }

  /**
   * After a full page, the last change. Otherwise every change below the snapshot's xmin has
   * been read, so the token moves on to xmin even when nothing matched: a caller polling an
   * organization that does not change keeps a token that does not grow old.
   */
  private next(rows: ChangeRow[], hasMore: boolean, after: Position, xmin: string): Position {
    const last = rows.at(-1);
    const end = last ? { xid: last.xid, seq: last.seq } : after;
    if (hasMore) return end;
    const through = BigInt(xmin) - 1n;
    return BigInt(end.xid) >= through ? end : { xid: through.toString(), seq: SEQ_MAX };
  }

  /**
   * Each change with its record as it is now. An upsert whose record is gone, or no longer
   * visible to this key (equipment assigned to someone else), is answered as a delete.
   */
  private async resolve(
    organizationId: string,
    ownerOf: Partial<Record<ChangeType, string>>,
    rows: ChangeRow[],
  ): Promise<Change[]> {
    const db = this.database.db;
    const wanted = (type: ChangeType) => [
      ...new Set(rows.filter((r) => r.type === type && r.op === "upsert").map((r) => r.recordId)),
    ];
    const load = async (type: ChangeType) => {
      const ids = wanted(type);
      if (ids.length === 0) return [];
      if (type === "tickets") return ticketsByIds(db, organizationId, ids, ownerOf.tickets);
      if (type === "alerts") return alertsByIds(db, organizationId, ids);
      return equipmentByIds(db, organizationId, ids, ownerOf.equipment);
    };
    const loaded = await Promise.all(CHANGE_TYPES.map(load));
    const records = new Map<string, TypedRecord>();
    CHANGE_TYPES.forEach((type, i) => {
      for (const row of loaded[i] ?? [])
        records.set(row.id, { ...row, __typename: TYPENAME[type] });
    });
    return rows.map((row) => {
      const record = row.op === "upsert" ? (records.get(row.recordId) ?? null) : null;
      return {
        type: row.type,
        id: row.recordId,
        op: record ? "upsert" : "delete",
        at: row.at,
        record,
      };
    });
  }
}
