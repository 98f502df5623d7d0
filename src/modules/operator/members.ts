import type { KeyStore } from "../../auth/key-store.ts";
import { builtInRole } from "../../auth/permissions.ts";
import type { Database, Executor } from "../../db/client.ts";
import { ApiError } from "../../errors.ts";
import type { AddMemberInput } from "../../generated/schema.ts";
import { isUuid, Problems } from "../../validation.ts";
import { emailSkeletons, looksLike } from "./emails.ts";
import { requireOrganization, requireUser } from "./lookups.ts";
import {
  deleteMembership,
  deleteUserSessions,
  findCustomRole,
  lockLookalikes,
  memberEmails,
  upsertMembership,
} from "./queries.ts";

export const LOOKALIKE_MEMBER =
  "This user's email looks the same as another member's of this organization (lookalike characters); check which of the two is genuine";

/**
 * Operator mutations addMember / removeMember. Each change reaches every instance's cached
 * keys before it returns: a removed member's keys stop working at once.
 */
export class MemberAdmin {
  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
  ) {}

  /**
   * Adds a member, or changes the role of one who already is. A new member whose email looks
   * like another member's (users made before the lookalike check) is refused with 409.
   */
  async add(input: AddMemberInput) {
    const db = this.database.db;
    await requireOrganization(db, input.organizationId);
    const user = await requireUser(db, input.userId);
    await this.checkRoleExists(input.organizationId, input.role);
    const row = await db.transaction(async (tx) => {
      await lockLookalikes(tx, input.organizationId);
      await refuseLookalike(tx, input.organizationId, user);
      return upsertMembership(tx, input);
    });
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

/** 409 when the user is not yet a member and their email looks like a member's. */
async function refuseLookalike(
  db: Executor,
  organizationId: string,
  user: { id: string; email: string },
) {
  const members = await memberEmails(db, organizationId);
  if (members.some((m) => m.userId === user.id)) return; // a role change
  const keys = emailSkeletons(user.email);
  if (members.some((m) => looksLike(keys, m.email)))
    throw new ApiError("CONFLICT", LOOKALIKE_MEMBER);
}
