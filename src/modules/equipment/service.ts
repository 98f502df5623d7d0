import {
  hasPermission,
  requireApiAccess,
  requirePermission,
  requireScope,
} from "../../auth/guard.ts";
import { randomBase62, sha256Hex } from "../../auth/keys.ts";
import type { Principal } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { type PageArgs, pageWindow } from "../../db/paging.ts";
import { ApiError, notFound, validationFailed } from "../../errors.ts";
import type {
  BulkCreateEquipmentInput,
  BulkEquipmentItem,
  UpdateEquipmentInput,
} from "../../generated/schema.ts";
import { recordChange } from "../../outbox/changes.ts";
import type { LiveEvent, LiveHub } from "../../outbox/live.ts";
import { liveFilter } from "../../outbox/live-filters.ts";
import { isUuid } from "../../validation.ts";
import { checkItems } from "./bulk-items.ts";
import { changeEquipment, visibleEquipment } from "./changes.ts";
import { equipmentEvents } from "./events.ts";
import { equipmentJson } from "./json.ts";
import {
  consumeEnrollmentToken,
  type EquipmentStatus,
  existingUnitIds,
  findEnrollmentToken,
  insertEnrollmentTokens,
  insertEquipment,
  listEquipment,
  memberUserIds,
  newestRelease,
} from "./queries.ts";

export const MAX_BULK_ITEMS = 100;
const DAY_MS = 86_400_000;
/** bulk links: reusable for 7 days; invitation links: one use within 30 days (docs/decisions.md §6) */
export const TOKEN_LIFETIME_MS = { bulk: 7 * DAY_MS, invitation: 30 * DAY_MS } as const;
export type TokenKind = keyof typeof TOKEN_LIFETIME_MS;
const TOKEN_SHAPE = /^[A-Za-z0-9]{20,64}$/;

/** Equipment rules (docs/decisions.md §4 and §6), shared by REST and GraphQL via the resolvers. */
export class EquipmentService {
  constructor(
    private readonly database: Database,
    private readonly publicBaseUrl: string,
    private readonly now: () => Date,
    private readonly live?: LiveHub,
  ) {}

  /** Live changes of the equipment the caller can see (the list's rule). */
  events(principal: Principal, args: { equipmentId?: string | null; types?: string[] | null }) {
    const allowed = (caller: Principal) => {
      requireApiAccess(caller);
      requireScope(caller, "equipment:read");
    };
    allowed(principal);
    if (!this.live) throw new Error("no live hub");
    const keep = (event: LiveEvent, caller: Principal) => {
      const all = hasPermission(caller, "equipment.view_all");
      const visible = (record: Record<string, unknown>) =>
        all || record.assignedUserId === caller.user.id;
      return liveFilter({ id: args.equipmentId, types: args.types, visible })(event);
    };
    return this.live.subscribe("equipment", principal, { allowed, keep });
  }

  list(principal: Principal, args: PageArgs & { status?: EquipmentStatus | null }) {
    requireApiAccess(principal);
    requireScope(principal, "equipment:read");
    const window = pageWindow(args);
    return listEquipment(
      this.database.db,
      {
        organizationId: principal.organization.id,
        status: args.status,
        assignedUserId: hasPermission(principal, "equipment.view_all")
          ? undefined
          : principal.user.id,
      },
      window,
    );
  }

  /**
   * Checks every item, creates the valid ones and their install tokens in one transaction, and
   * lists the others in `errors`. When no item is valid nothing is written and the call is a 400.
   */
  async bulkCreate(principal: Principal, input: BulkCreateEquipmentInput) {
    requireApiAccess(principal);
    requireScope(principal, "equipment:write");
    requirePermission(principal, "equipment.manage");
    const { items } = input;
    if (items.length < 1 || items.length > MAX_BULK_ITEMS) {
      throw validationFailed([
        {
          path: ["items"],
          message: `Must have 1 to ${MAX_BULK_ITEMS} items (got ${items.length})`,
        },
      ]);
    }
    const organizationId = principal.organization.id;
    const { db } = this.database;
    const wanted = (pick: (item: BulkEquipmentItem) => string | null | undefined) => [
      ...new Set(items.map(pick).filter((id): id is string => !!id && isUuid(id))),
    ];
    const [units, members] = await Promise.all([
      existingUnitIds(
        db,
        organizationId,
        wanted((item) => item.unitId),
      ),
      memberUserIds(
        db,
        organizationId,
        wanted((item) => item.assignToUserId),
      ),
    ]);
    const { valid, errors } = checkItems(items, { units, members });
    if (valid.length === 0) {
      throw validationFailed(errors.map(({ path, message }) => ({ path, message })));
    }

    const kind: TokenKind = input.tokenKind ?? "bulk";
    const now = this.now();
    const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS[kind]);
    const tokens = valid.map(() => randomBase62(40));
    const hashes = tokens.map(sha256Hex);
    const created = await db.transaction(async (tx) => {
      const rows = await insertEquipment(
        tx,
        valid.map(({ item }) => ({
          organizationId,
          name: item.name,
          type: item.type,
          platform: item.platform,
          location: item.location,
          unitId: item.unitId,
          managedBy: item.managedBy,
          assignedUserId: item.assignToUserId,
          createdAt: now,
          updatedAt: now,
        })),
      );
      // equipment.created once per record, in the creation's own transaction
      for (const row of rows) {
        await recordChange(tx, {
          organizationId,
          event: equipmentEvents.created,
          data: { equipment: equipmentJson(row) },
          now,
          live: { resource: "equipment", record: row },
        });
      }
      await insertEnrollmentTokens(
        tx,
        rows.map((row, i) => ({
          organizationId,
          equipmentId: row.id,
          tokenHash: hashes[i] as string,
          kind,
          expiresAt,
          createdAt: now,
        })),
      );
      return rows;
    });
    return {
      requested: items.length,
      created: created.length,
      failed: errors.length,
      items: created.map((row, i) => ({
        name: row.name,
        id: row.id,
        installUrl: `${this.publicBaseUrl}/install/${tokens[i]}`,
      })),
      errors,
    };
  }

  get(principal: Principal, id: string) {
    return visibleEquipment(this.database, principal, id);
  }

  update(
    principal: Principal,
    args: { id: string; input: UpdateEquipmentInput; expectedVersion?: number | null },
  ) {
    return changeEquipment(this.database, this.now, principal, args);
  }

  retire(principal: Principal, args: { id: string; expectedVersion?: number | null }) {
    return changeEquipment(this.database, this.now, principal, {
      id: args.id,
      expectedVersion: args.expectedVersion,
    });
  }

  /**
   * What an agent installer learns from its install link: no API key, the token is the secret.
   * Unknown → 404; expired, or an invitation already used → 410. Using an invitation consumes it.
   */
  async install(token: string) {
    if (!TOKEN_SHAPE.test(token)) throw notFound("Install link not found");
    const { db } = this.database;
    const found = await findEnrollmentToken(db, sha256Hex(token));
    if (!found) throw notFound("Install link not found");
    const now = this.now();
    if (found.token.expiresAt.getTime() <= now.getTime()) {
      throw new ApiError("GONE", "Install link expired");
    }
    if (found.token.kind === "invitation") {
      const first = !found.token.usedAt && (await consumeEnrollmentToken(db, found.token.id, now));
      if (!first) throw new ApiError("GONE", "Install link already used");
    }
    const release = found.equipment.platform
      ? await newestRelease(db, found.equipment.platform)
      : undefined;
    return {
      equipmentId: found.equipment.id,
      equipmentName: found.equipment.name,
      platform: found.equipment.platform,
      tokenKind: found.token.kind,
      expiresAt: found.token.expiresAt.toISOString(),
      agentRelease: release
        ? {
            id: release.id,
            version: release.version,
            platform: release.platform,
            architecture: release.architecture,
            channel: release.channel,
            releasedAt: release.releasedAt.toISOString(),
            downloadUrl: release.downloadUrl,
            sha256: release.sha256,
          }
        : null,
    };
  }
}
