import { and, eq } from "drizzle-orm";
import ipaddr from "ipaddr.js";
import type { KeyStore } from "../../auth/key-store.ts";
import { builtInRole, isPermission, type Plan, type Seat } from "../../auth/permissions.ts";
import type { Database } from "../../db/client.ts";
import { isUniqueViolation, single } from "../../db/errors.ts";
import {
  agentReleases,
  equipmentPlatformEnum,
  ingestSources,
  memberships,
  organizations,
  roles,
  userSessions,
  users,
} from "../../db/schema/index.ts";
import { ApiError } from "../../errors.ts";
import { isUuid, Problems } from "../../validation.ts";
import { requireOrganization, requireUser } from "./lookups.ts";

// linear: the dot-separated domain labels cannot overlap, so no input makes it backtrack
const EMAIL = /^[^\s@]{1,64}@(?:[^\s@.]+\.)+[^\s@.]+$/;
const ROLE_NAME = /^[a-z][a-z0-9_-]*$/;

/**
 * The operator mutations of docs/decisions.md §3 (API keys: api-keys.ts). Each validates
 * everything before writing.
 */
export class OperatorService {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get db() {
    return this.database.db;
  }

  async createOrganization(input: {
    name: string;
    plan?: Plan | null;
    dailyQuota?: number | null;
  }) {
    const problems = new Problems().length(input.name.trim(), ["input", "name"], 1, 200);
    checkQuota(problems, input.dailyQuota);
    problems.throwIfAny();
    return single(
      await this.db
        .insert(organizations)
        .values({
          name: input.name.trim(),
          plan: input.plan ?? "PRO",
          dailyQuota: input.dailyQuota ?? null,
        })
        .returning(),
    );
  }

  async updateOrganization(
    id: string,
    input: {
      name?: string | null;
      plan?: Plan | null;
      dailyQuota?: number | null;
      unlimitedQuota?: boolean | null;
    },
  ) {
    const problems = new Problems();
    if (input.name != null) problems.length(input.name.trim(), ["input", "name"], 1, 200);
    checkQuota(problems, input.dailyQuota);
    problems.throwIfAny();
    await requireOrganization(this.db, id);
    const changes: Partial<typeof organizations.$inferInsert> = {};
    if (input.name != null) changes.name = input.name.trim();
    if (input.plan != null) changes.plan = input.plan;
    // an explicit null resets the quota to the plan default
    if (input.dailyQuota !== undefined) changes.dailyQuota = input.dailyQuota;
    if (input.unlimitedQuota != null) changes.unlimitedQuota = input.unlimitedQuota;
    const row = single(
      await this.db
        .update(organizations)
        .set({ ...changes, updatedAt: this.now() })
        .where(eq(organizations.id, id))
        .returning(),
    );
    await this.keys.announce({ kind: "organization", id });
    return row;
  }

  async createUser(input: { email: string; firstName: string; lastName: string }) {
    const email = input.email.trim();
    new Problems()
      .check(
        email.length <= 254 && EMAIL.test(email), // the length first: never scan a huge string
        ["input", "email"],
        "Must be an email address",
      )
      .length(input.firstName.trim(), ["input", "firstName"], 1, 100)
      .length(input.lastName.trim(), ["input", "lastName"], 1, 100)
      .throwIfAny();
    try {
      return single(
        await this.db
          .insert(users)
          .values({ email, firstName: input.firstName.trim(), lastName: input.lastName.trim() })
          .returning(),
      );
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError("CONFLICT", "A user with this email already exists");
      throw error;
    }
  }

  /** Adds a member, or changes the role of one who already is. */
  async addMember(input: { organizationId: string; userId: string; role: string }) {
    await requireOrganization(this.db, input.organizationId);
    await requireUser(this.db, input.userId);
    await this.checkRoleExists(input.organizationId, input.role);
    const row = single(
      await this.db
        .insert(memberships)
        .values(input)
        .onConflictDoUpdate({
          target: [memberships.organizationId, memberships.userId],
          set: { role: input.role },
        })
        .returning(),
    );
    await this.keys.announce({ kind: "organization", id: input.organizationId });
    return row;
  }

  async removeMember(organizationId: string, userId: string): Promise<boolean> {
    if (!isUuid(organizationId) || !isUuid(userId)) return false;
    const removed = await this.db
      .delete(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
      .returning();
    if (removed.length === 0) return false;
    // the settings screen's sessions end at once too (docs/decisions.md §10)
    await this.db.delete(userSessions).where(eq(userSessions.userId, userId));
    await this.keys.announce({ kind: "organization", id: organizationId });
    return true;
  }

  async createRole(input: {
    organizationId: string;
    name: string;
    seat: Seat;
    permissions: string[];
  }) {
    const problems = new Problems()
      .check(
        ROLE_NAME.test(input.name) && input.name.length <= 50,
        ["input", "name"],
        "Must be 1 to 50 lowercase letters, digits, - or _, starting with a letter",
      )
      .check(!builtInRole(input.name), ["input", "name"], `"${input.name}" is a built-in role`);
    input.permissions.forEach((permission, i) => {
      problems.check(
        isPermission(permission),
        ["input", "permissions", String(i)],
        `Unknown permission: ${permission}`,
      );
    });
    problems.throwIfAny();
    await requireOrganization(this.db, input.organizationId);
    try {
      return single(
        await this.db
          .insert(roles)
          .values({ ...input, permissions: [...new Set(input.permissions)] })
          .returning(),
      );
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ApiError("CONFLICT", "A role with this name already exists");
      throw error;
    }
  }

  async addIngestSource(input: { organizationId: string; cidr: string; label?: string | null }) {
    const cidr = normaliseCidr(input.cidr.trim());
    new Problems()
      .check(
        cidr !== null,
        ["input", "cidr"],
        "Must be an IPv4 or IPv6 address or network, e.g. 203.0.113.0/24",
      )
      .check(
        (input.label ?? "").length <= 200,
        ["input", "label"],
        "Must be at most 200 characters",
      )
      .throwIfAny();
    await requireOrganization(this.db, input.organizationId);
    return single(
      await this.db
        .insert(ingestSources)
        .values({
          organizationId: input.organizationId,
          cidr: cidr as string,
          label: input.label ?? null,
        })
        .returning(),
    );
  }

  async createAgentRelease(input: {
    version: string;
    platform: string;
    architecture: string;
    channel: string;
    downloadUrl: string;
    sha256: string;
  }) {
    const platforms: readonly string[] = equipmentPlatformEnum.enumValues;
    new Problems()
      .length(input.version, ["input", "version"], 1, 50)
      .check(
        platforms.includes(input.platform),
        ["input", "platform"],
        `Must be one of ${platforms.join(", ")}`,
      )
      .length(input.architecture, ["input", "architecture"], 1, 50)
      .length(input.channel, ["input", "channel"], 1, 50)
      .check(
        /^https?:\/\/[^\s]+$/.test(input.downloadUrl),
        ["input", "downloadUrl"],
        "Must be an http(s) URL",
      )
      .check(
        /^[0-9a-f]{64}$/i.test(input.sha256),
        ["input", "sha256"],
        "Must be 64 hexadecimal characters",
      )
      .throwIfAny();
    try {
      return single(
        await this.db
          .insert(agentReleases)
          .values({ ...input, sha256: input.sha256.toLowerCase() })
          .returning(),
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiError(
          "CONFLICT",
          "This version, platform, architecture and channel already exist",
        );
      }
      throw error;
    }
  }

  private async checkRoleExists(organizationId: string, role: string) {
    if (builtInRole(role)) return;
    const custom = await this.db.query.roles.findFirst({
      where: and(eq(roles.organizationId, organizationId), eq(roles.name, role)),
    });
    if (!custom) {
      new Problems().add(["input", "role"], `Unknown role: ${role}`).throwIfAny();
    }
  }
}

function checkQuota(problems: Problems, quota: number | null | undefined) {
  if (quota != null) problems.check(quota >= 0, ["input", "dailyQuota"], "Must be 0 or more");
}

/** "10.0.0.0/8" stays; "10.0.0.7" becomes "10.0.0.7/32"; host bits are cleared. Null if invalid. */
export function normaliseCidr(value: string): string | null {
  try {
    if (value.includes("/")) {
      const [address, bits] = ipaddr.parseCIDR(value);
      const network =
        address.kind() === "ipv4"
          ? ipaddr.IPv4.networkAddressFromCIDR(value)
          : ipaddr.IPv6.networkAddressFromCIDR(value);
      return `${network.toString()}/${bits}`;
    }
    const address = ipaddr.parse(value);
    return `${address.toString()}/${address.kind() === "ipv4" ? 32 : 128}`;
  } catch {
    return null;
  }
}
