import type { AuditTrail } from "../../auth/audit-trail.ts";
import type { KeyStore } from "../../auth/key-store.ts";
import type { Database } from "../../db/client.ts";
import type { CreateOrganizationInput, UpdateOrganizationInput } from "../../generated/schema.ts";
import { Problems } from "../../validation.ts";
import { policyChangedEvent, validatePolicyDays } from "../key-security/lifetime.ts";
import { lockPolicy } from "../key-security/queries.ts";
import { requireOrganization } from "./lookups.ts";
import { insertOrganization, updateOrganizationRow } from "./queries.ts";

/** Operator mutations createOrganization / updateOrganization. */
export class OrganizationAdmin {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
    private readonly now: () => Date,
    /** a change of the key lifetime policy goes into the organization's audit trail */
    private readonly audit?: Pick<AuditTrail, "record">,
  ) {}

  async create(input: CreateOrganizationInput) {
    const problems = new Problems().length(input.name.trim(), ["input", "name"], 1, 200);
    checkQuota(problems, input.dailyQuota);
    problems.throwIfAny();
    return insertOrganization(this.database.db, {
      name: input.name.trim(),
      plan: input.plan ?? "PRO",
      dailyQuota: input.dailyQuota ?? null,
    });
  }

  /** A plan or quota change reaches every instance's cached keys before this returns. */
  async update(id: string, input: UpdateOrganizationInput) {
    const problems = new Problems();
    if (input.name != null) problems.length(input.name.trim(), ["input", "name"], 1, 200);
    checkQuota(problems, input.dailyQuota);
    problems.throwIfAny();
    const maxDays =
      input.maxKeyLifetimeDays === undefined
        ? undefined
        : validatePolicyDays(input.maxKeyLifetimeDays, ["input", "maxKeyLifetimeDays"]);
    const db = this.database.db;
    await requireOrganization(db, id);
    const changes: Parameters<typeof updateOrganizationRow>[2] = {};
    if (input.name != null) changes.name = input.name.trim();
    if (input.plan != null) changes.plan = input.plan;
    // an explicit null resets the quota to the plan default
    if (input.dailyQuota !== undefined) changes.dailyQuota = input.dailyQuota;
    if (input.unlimitedQuota != null) changes.unlimitedQuota = input.unlimitedQuota;
    if (input.requirePasskey != null) changes.requirePasskey = input.requirePasskey;
    if (maxDays !== undefined) changes.maxKeyLifetimeDays = maxDays;
    const { row, from } = await db.transaction(async (tx) => {
      // the policy before the change, for the audit trail (the row stays locked until commit)
      const before = maxDays === undefined ? undefined : await lockPolicy(tx, id);
      const row = await updateOrganizationRow(tx, id, { ...changes, updatedAt: this.now() });
      return { row, from: before?.maxKeyLifetimeDays ?? null };
    });
    if (maxDays !== undefined && from !== maxDays) {
      this.audit?.record(policyChangedEvent(id, from, maxDays, "operator"));
    }
    await this.keys.announce({ kind: "organization", id });
    return row;
  }
}

function checkQuota(problems: Problems, quota: number | null | undefined) {
  if (quota != null) problems.check(quota >= 0, ["input", "dailyQuota"], "Must be 0 or more");
}
