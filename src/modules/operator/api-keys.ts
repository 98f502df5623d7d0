import type { AuditTrail } from "../../auth/audit-trail.ts";
import type { KeyStore } from "../../auth/key-store.ts";
import { displayPrefix, generateApiKey, sha256Hex } from "../../auth/keys.ts";
import { isScope } from "../../auth/permissions.ts";
import type { Database } from "../../db/client.ts";
import { ApiError, notFound } from "../../errors.ts";
import type { KeyExpiration } from "../../generated/graphql.ts";
import type { CreateApiKeyInput } from "../../generated/schema.ts";
import { isUuid, Problems } from "../../validation.ts";
import { collectAllowlist } from "../key-security/allowlist.ts";
import { expiryFrom, requireWithinPolicy } from "../key-security/lifetime.ts";
import {
  dropPendingNotices,
  endGraceOfReplaced,
  scheduleNotices,
} from "../key-security/queries.ts";
import { requireOrganization, requireUser } from "./lookups.ts";
import {
  countActiveKeys,
  findApiKey,
  findMembership,
  insertApiKey,
  lockMemberKeys,
  revokeApiKeyRow,
} from "./queries.ts";

/** docs/security.md: active (neither revoked nor expired) keys of one member in one organization */
export const MAX_ACTIVE_KEYS_PER_MEMBER = 50;

/** the SDL's KeyExpiration (schema/operator.graphql) */
export type { KeyExpiration };

/** Issuing and revoking API keys (operator mutations createApiKey / revokeApiKey). */
export class ApiKeyAdmin {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
    private readonly now: () => Date = () => new Date(),
    private readonly audit?: Pick<AuditTrail, "record">,
  ) {}

  private get db() {
    return this.database.db;
  }

  async createApiKey(input: CreateApiKeyInput) {
    const problems = new Problems()
      .length(input.name.trim(), ["input", "name"], 1, 100)
      .check(input.scopes.length > 0, ["input", "scopes"], "Choose at least one scope");
    input.scopes.forEach((scope, i) => {
      problems.check(isScope(scope), ["input", "scopes", String(i)], `Unknown scope: ${scope}`);
    });
    const hasIn = input.expiresIn != null;
    const hasAt = input.expiresAt != null;
    problems.check(
      hasIn !== hasAt,
      ["input", "expiresIn"],
      "Give exactly one of expiresIn and expiresAt",
    );
    if (hasAt) {
      problems.check(
        (input.expiresAt as Date).getTime() > this.now().getTime(),
        ["input", "expiresAt"],
        "Must be in the future",
      );
    }
    const allowedIps = collectAllowlist(input.allowedIps ?? [], ["input", "allowedIps"], problems);
    problems.throwIfAny();
    const organization = await requireOrganization(this.db, input.organizationId);
    await requireUser(this.db, input.userId);
    const member = await findMembership(this.db, input.organizationId, input.userId);
    if (!member) {
      throw new Problems()
        .add(["input", "userId"], "The user is not a member of this organization")
        .throwIfAny() as never;
    }
    const now = this.now();
    const expiresAt = hasAt
      ? (input.expiresAt as Date)
      : expiryFrom(input.expiresIn ?? "NEVER", now);
    // the organization's maximum lifetime (docs/security.md): NEVER and longer are refused
    requireWithinPolicy(expiresAt, organization.maxKeyLifetimeDays, now, [
      "input",
      hasAt ? "expiresAt" : "expiresIn",
    ]);
    const secret = generateApiKey();
    const apiKey = await this.db.transaction(async (tx) => {
      await lockMemberKeys(tx, input.organizationId, input.userId);
      const active = await countActiveKeys(tx, input.organizationId, input.userId, this.now());
      if (active >= MAX_ACTIVE_KEYS_PER_MEMBER) {
        throw new ApiError(
          "CONFLICT",
          `You can have at most ${MAX_ACTIVE_KEYS_PER_MEMBER} active API keys in an organization; revoke one first`,
        );
      }
      const row = await insertApiKey(tx, {
        organizationId: input.organizationId,
        userId: input.userId,
        name: input.name.trim(),
        keyHash: sha256Hex(secret),
        prefix: displayPrefix(secret),
        scopes: [...new Set(input.scopes)],
        allowedIps,
        expiresAt,
      });
      await scheduleNotices(tx, row, now);
      return row;
    });
    this.audit?.record({
      kind: "api_key.created",
      organizationId: apiKey.organizationId,
      apiKeyId: apiKey.id,
      userId: apiKey.userId,
      detail: { name: apiKey.name, scopes: apiKey.scopes, expiresAt: apiKey.expiresAt },
    });
    return { apiKey, secret };
  }

  async revokeApiKey(id: string) {
    if (!isUuid(id)) throw notFound("API key not found");
    const row = await revokeApiKeyRow(this.db, id, this.now());
    const key = row ?? (await findApiKey(this.db, id));
    if (!key) throw notFound("API key not found");
    // a revoked key's old secret (after a rotation) stops too, and nothing warns of its expiry
    const ended = await endGraceOfReplaced(this.db, id, this.now());
    await dropPendingNotices(this.db, id);
    for (const keyId of [id, ...ended]) await this.keys.announce({ kind: "key", id: keyId });
    if (row) {
      this.audit?.record({
        kind: "api_key.revoked",
        organizationId: row.organizationId,
        apiKeyId: row.id,
        userId: row.userId,
        detail: { name: row.name },
      });
    }
    return key;
  }
}
