import type { KeyStore } from "../../auth/key-store.ts";
import { displayPrefix, generateApiKey, sha256Hex } from "../../auth/keys.ts";
import { isScope } from "../../auth/permissions.ts";
import type { Database } from "../../db/client.ts";
import { notFound } from "../../errors.ts";
import type { KeyExpiration } from "../../graphql/generated.ts";
import { isUuid, Problems } from "../../validation.ts";
import { requireOrganization, requireUser } from "./lookups.ts";
import { findApiKey, findMembership, insertApiKey, revokeApiKeyRow } from "./queries.ts";

/** the SDL's KeyExpiration (schema/operator.graphql) */
export type { KeyExpiration };

export interface CreateApiKeyInput {
  organizationId: string;
  userId: string;
  name: string;
  scopes: string[];
  expiresIn?: KeyExpiration | null;
  expiresAt?: Date | null;
}

/** Issuing and revoking API keys (operator mutations createApiKey / revokeApiKey). */
export class ApiKeyAdmin {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
    private readonly now: () => Date = () => new Date(),
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
    problems.throwIfAny();
    await requireOrganization(this.db, input.organizationId);
    await requireUser(this.db, input.userId);
    const member = await findMembership(this.db, input.organizationId, input.userId);
    if (!member) {
      throw new Problems()
        .add(["input", "userId"], "The user is not a member of this organization")
        .throwIfAny() as never;
    }
    const secret = generateApiKey();
    const apiKey = await insertApiKey(this.db, {
      organizationId: input.organizationId,
      userId: input.userId,
      name: input.name.trim(),
      keyHash: sha256Hex(secret),
      prefix: displayPrefix(secret),
      scopes: [...new Set(input.scopes)],
      expiresAt: hasAt
        ? (input.expiresAt as Date)
        : expiryFrom(input.expiresIn ?? "NEVER", this.now()),
    });
    return { apiKey, secret };
  }

  async revokeApiKey(id: string) {
    if (!isUuid(id)) throw notFound("API key not found");
    const row = await revokeApiKeyRow(this.db, id, this.now());
    const key = row ?? (await findApiKey(this.db, id));
    if (!key) throw notFound("API key not found");
    await this.keys.announce({ kind: "key", id });
    return key;
  }
}

export function expiryFrom(choice: KeyExpiration, now: Date): Date | null {
  const at = new Date(now);
  switch (choice) {
    case "NEVER":
      return null;
    case "DAYS_30":
      at.setUTCDate(at.getUTCDate() + 30);
      return at;
    case "DAYS_90":
      at.setUTCDate(at.getUTCDate() + 90);
      return at;
    case "MONTHS_6":
      at.setUTCMonth(at.getUTCMonth() + 6);
      return at;
    case "YEAR_1":
      at.setUTCFullYear(at.getUTCFullYear() + 1);
      return at;
  }
}
