import type { AuditTrail } from "../../auth/audit-trail.ts";
import type { KeyStore } from "../../auth/key-store.ts";
import { displayPrefix, generateApiKey, sha256Hex } from "../../auth/keys.ts";
import { resolveRole } from "../../auth/load-principal.ts";
import type { Member } from "../../auth/principal.ts";
import type { Database } from "../../db/client.ts";
import { ApiError, forbidden, notFound } from "../../errors.ts";
import { isUuid, Problems } from "../../validation.ts";
import { validateAllowlist } from "./allowlist.ts";
import { keyEvents, keyPayload } from "./events.ts";
import { policyChangedEvent, requireWithinPolicy, validatePolicyDays } from "./lifetime.ts";
import {
  dropPendingNotices,
  endGraceOfReplaced,
  findKey,
  insertKey,
  lockPolicy,
  markRotated,
  membershipOf,
  policyOf,
  scheduleNotices,
  setAllowedIps,
  setPolicy,
} from "./queries.ts";

/** Who acts: a member on the settings screen (their own keys, or any with an ADMIN seat) or the operator. */
export type KeyActor = { member: Member } | { operator: true };

/** Grace of an old secret after a rotation, in seconds: a day by default, at most 7 days. */
export const DEFAULT_GRACE_S = 86_400;
export const MAX_GRACE_S = 604_800;

/**
 * Rotation with grace, per-key IP allowlists and the organization's maximum key lifetime
 * (docs/security.md). The rules of who may touch a key are the settings screen's: the owner,
 * or an ADMIN seat of its organization; the operator everywhere. Another organization's key
 * is "not found".
 */
export class KeySecurityService {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
    private readonly now: () => Date,
    /** key events go into the organization's audit trail (docs/security.md#audit-trail) */
    private readonly audit?: Pick<AuditTrail, "record">,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** The key if the actor may manage it; 404 otherwise (never 403: no existence oracle). */
  private async keyFor(actor: KeyActor, id: string) {
    const key = isUuid(id) ? await findKey(this.db, id) : undefined;
    if (!key) throw notFound("API key not found");
    if ("operator" in actor) return key;
    const seat = await this.seatOf(actor.member, key.organizationId);
    if (!seat || (key.userId !== actor.member.userId && seat !== "ADMIN")) {
      throw notFound("API key not found");
    }
    return key;
  }

  /** The member's seat in the organization, read live; null when not a member there. */
  private async seatOf(member: Member, organizationId: string) {
    const row = isUuid(organizationId)
      ? await membershipOf(this.db, member.userId, organizationId)
      : undefined;
    if (!row) return null;
    return resolveRole(row.role, row.customSeat, row.customPermissions)?.seat ?? null;
  }

  async rotate(actor: KeyActor, id: string, gracePeriod: number | null | undefined) {
    const grace = gracePeriod ?? DEFAULT_GRACE_S;
    new Problems()
      .check(
        Number.isInteger(grace) && grace >= 0 && grace <= MAX_GRACE_S,
        ["gracePeriod"],
        `Must be a whole number of seconds from 0 to ${MAX_GRACE_S} (7 days)`,
      )
      .throwIfAny();
    const old = await this.keyFor(actor, id);
    const now = this.now();
    if (old.revokedAt) throw new ApiError("CONFLICT", "API key revoked");
    if (old.rotatedAt) throw new ApiError("CONFLICT", "API key already rotated");
    if (old.expiresAt && old.expiresAt.getTime() <= now.getTime()) {
      throw new ApiError("CONFLICT", "API key expired");
    }
    const policy = await policyOf(this.db, old.organizationId);
    // the new key keeps the old expiry: under a maximum, a longer one cannot be renewed so
    requireWithinPolicy(old.expiresAt, policy?.maxKeyLifetimeDays ?? null, now, ["id"]);
    // no cap check: a rotation replaces a key, the count of active keys stays (§23)
    const secret = generateApiKey();
    const newId = crypto.randomUUID();
    const { apiKey, ended } = await this.db.transaction(async (tx) => {
      const graceEndsAt = new Date(now.getTime() + grace * 1000);
      const marked = await markRotated(tx, old.id, { at: now, graceEndsAt, replacedById: newId });
      if (!marked) throw new ApiError("CONFLICT", "API key already rotated or revoked");
      const apiKey = await insertKey(tx, {
        id: newId,
        organizationId: old.organizationId,
        userId: old.userId,
        name: old.name,
        keyHash: sha256Hex(secret),
        prefix: displayPrefix(secret),
        scopes: old.scopes,
        allowedIps: old.allowedIps,
        expiresAt: old.expiresAt,
      });
      // rotating again during a grace: the secret before the old one stops now
      const ended = await endGraceOfReplaced(tx, old.id, now);
      await dropPendingNotices(tx, old.id);
      await scheduleNotices(tx, apiKey, now);
      await keyEvents.rotated.record(tx, {
        organizationId: old.organizationId,
        data: {
          apiKey: keyPayload(apiKey),
          previousKey: {
            id: marked.id,
            prefix: marked.prefix,
            graceEndsAt: marked.graceEndsAt?.toISOString() ?? null,
          },
        },
        now,
      });
      return { apiKey, ended };
    });
    // every instance reloads the old key (and any whose grace ended) before this returns
    for (const keyId of [old.id, ...ended]) await this.keys.announce({ kind: "key", id: keyId });
    this.audit?.record({
      kind: "api_key.rotated",
      organizationId: old.organizationId,
      apiKeyId: old.id,
      userId: old.userId,
      detail: { name: old.name, newKeyId: apiKey.id, gracePeriod: grace },
    });
    return { apiKey, secret };
  }

  async setAllowedIps(actor: KeyActor, id: string, allowedIps: readonly string[]) {
    const stored = validateAllowlist(allowedIps, ["allowedIps"]);
    const key = await this.keyFor(actor, id);
    if (key.revokedAt) throw new ApiError("CONFLICT", "API key revoked");
    const row = await setAllowedIps(this.db, key.id, stored);
    await this.keys.announce({ kind: "key", id: key.id });
    this.audit?.record({
      kind: "api_key.allowlist_changed",
      organizationId: key.organizationId,
      apiKeyId: key.id,
      userId: key.userId,
      detail: { name: key.name, from: key.allowedIps, to: stored },
    });
    return row ?? key;
  }

  /** The policy of an organization; a member needs an ADMIN seat there. */
  async setKeyLifetimePolicy(
    actor: KeyActor,
    organizationId: string,
    days: number | null | undefined,
  ) {
    const value = validatePolicyDays(days);
    if (!("operator" in actor)) {
      const seat = await this.seatOf(actor.member, organizationId);
      if (!seat) throw notFound("Organization not found");
      if (seat !== "ADMIN") throw forbidden("Only an administrator seat may set the policy");
    }
    const change = isUuid(organizationId)
      ? await this.db.transaction(async (tx) => {
          const before = await lockPolicy(tx, organizationId);
          const row = before && (await setPolicy(tx, organizationId, value));
          return row && { ...row, from: before.maxKeyLifetimeDays };
        })
      : undefined;
    if (!change) throw notFound("Organization not found");
    const by = "member" in actor ? { userId: actor.member.userId } : "operator";
    if (change.from !== change.maxKeyLifetimeDays) {
      this.audit?.record(policyChangedEvent(change.id, change.from, change.maxKeyLifetimeDays, by));
    }
    return { organizationId: change.id, maxKeyLifetimeDays: change.maxKeyLifetimeDays };
  }

  /** The organization's maximum, for the create paths and the settings form. */
  async maxLifetimeDays(organizationId: string): Promise<number | null> {
    return (await policyOf(this.db, organizationId))?.maxKeyLifetimeDays ?? null;
  }
}
