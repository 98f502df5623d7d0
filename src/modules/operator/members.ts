import type { KeyStore } from "../../auth/key-store.ts";
import { builtInRole } from "../../auth/permissions.ts";
import type { Database } from "../../db/client.ts";
import type { AddMemberInput } from "../../generated/schema.ts";
import { isUuid, Problems } from "../../validation.ts";
import { requireOrganization, requireUser } from "./lookups.ts";
import {
  deleteMembership,
  deleteUserSessions,
  findCustomRole,
  upsertMembership,
} from "./queries.ts";

/**
 * Operator mutations addMember / removeMember. Each change reaches every instance's cached
 * keys before it returns: a removed member's keys stop working at once.
 */
export class MemberAdmin {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
  ) {}

  /** Adds a member, or changes the role of one who already is. */
  async add(input: AddMemberInput) {
    const db = this.database.db;
    await requireOrganization(db, input.organizationId);
    await requireUser(db, input.userId);
    await this.checkRoleExists(input.organizationId, input.role);
    const row = await upsertMembership(db, input);
    await this.keys.announce({ kind: "organization", id: input.organizationId });
    return row;
  }

  async remove(organizationId: string, userId: string): Promise<boolean> {
    if (!isUuid(organizationId) || !isUuid(userId)) return false;
    const db = this.database.db;
    const removed = await deleteMembership(db, organizationId, userId);
    if (removed.length === 0) return false;
    // the settings screen's sessions end at once too (docs/decisions.md §10)
    await deleteUserSessions(db, userId);
    await this.keys.announce({ kind: "organization", id: organizationId });
    return true;
  }

  private async checkRoleExists(organizationId: string, role: string) {
    if (builtInRole(role)) return;
    const custom = await findCustomRole(this.database.db, organizationId, role);
    if (!custom) {
      new Problems().add(["input", "role"], `Unknown role: ${role}`).throwIfAny();
    }
  }
}
