import { and, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import {
  apiKeyNotices,
  apiKeys,
  memberships,
  organizations,
  roles,
} from "../../db/schema/index.ts";

/**
 * Named data access of key rotation, allowlists, the lifetime policy and expiry warnings.
 * Every statement names the key or organization it touches; the callers (service.ts) have
 * checked that the caller may touch it.
 */

/** A member's role in one organization, with its custom seat if any; undefined: not a member. */
export async function membershipOf(db: Executor, userId: string, organizationId: string) {
  const [row] = await db
    .select({
      role: memberships.role,
      customSeat: roles.seat,
      customPermissions: roles.permissions,
    })
    .from(memberships)
    .leftJoin(
      roles,
      and(eq(roles.organizationId, memberships.organizationId), eq(roles.name, memberships.role)),
    )
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)))
    .limit(1);
  return row;
}

export async function insertKey(db: Executor, values: typeof apiKeys.$inferInsert) {
  const [row] = await db.insert(apiKeys).values(values).returning();
  if (!row) throw new Error("api key insert returned no row");
  return row;
}

export const findKey = (db: Executor, id: string) =>
  db.query.apiKeys.findFirst({ where: eq(apiKeys.id, id) });

export async function policyOf(db: Executor, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, maxKeyLifetimeDays: organizations.maxKeyLifetimeDays })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .limit(1);
  return row;
}

export async function setPolicy(db: Executor, organizationId: string, days: number | null) {
  const [row] = await db
    .update(organizations)
    .set({ maxKeyLifetimeDays: days })
    .where(eq(organizations.id, organizationId))
    .returning({ id: organizations.id, maxKeyLifetimeDays: organizations.maxKeyLifetimeDays });
  return row;
}

/**
 * The policy before and after a change, for the audit trail: the row is locked while it is
 * read, so two changes at once each see the value the other left.
 */
export async function lockPolicy(tx: Executor, organizationId: string) {
  const [row] = await tx
    .select({ maxKeyLifetimeDays: organizations.maxKeyLifetimeDays })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
  return row;
}

/**
 * Marks a live, not yet rotated key as rotated, its secret answering until `graceEndsAt`
 * (at most its own expiry). Undefined when another rotation or a revocation came first.
 */
export async function markRotated(
  db: Executor,
  id: string,
  values: { at: Date; graceEndsAt: Date; replacedById: string },
) {
  const [row] = await db
    .update(apiKeys)
    .set({
      rotatedAt: values.at,
      replacedById: values.replacedById,
      graceEndsAt: sql`least(${apiKeys.expiresAt}, ${values.graceEndsAt.toISOString()}::timestamptz)`,
    })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.rotatedAt), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}

/**
 * Ends at once the grace of the keys `id` replaced (a second rotation, or `id` revoked):
 * only one old secret of a key answers at a time. Returns the ids whose grace ended.
 */
export async function endGraceOfReplaced(db: Executor, id: string, at: Date) {
  const rows = await db
    .update(apiKeys)
    .set({ graceEndsAt: at })
    .where(and(eq(apiKeys.replacedById, id), gt(apiKeys.graceEndsAt, at)))
    .returning({ id: apiKeys.id });
  return rows.map((r) => r.id);
}

export async function setAllowedIps(db: Executor, id: string, allowedIps: string[]) {
  const [row] = await db.update(apiKeys).set({ allowedIps }).where(eq(apiKeys.id, id)).returning();
  return row;
}

/** Writes the warning points of a key still ahead of `now` (none for a key that never expires). */
export async function scheduleNotices(
  db: Executor,
  key: { id: string; expiresAt: Date | null },
  now: Date,
) {
  if (!key.expiresAt) return;
  const expiry = key.expiresAt.getTime();
  const points = [
    ["30d", expiry - 30 * 86_400_000],
    ["7d", expiry - 7 * 86_400_000],
    ["1d", expiry - 86_400_000],
    ["expired", expiry],
  ] as const;
  const ahead = points.filter(([, due]) => due > now.getTime());
  if (ahead.length === 0) return;
  await db
    .insert(apiKeyNotices)
    .values(ahead.map(([point, due]) => ({ keyId: key.id, point, dueAt: new Date(due) })))
    .onConflictDoNothing();
}

/** A rotated or revoked key warns no more: its unsent points go (the new key has its own). */
export async function dropPendingNotices(db: Executor, keyId: string) {
  await db
    .delete(apiKeyNotices)
    .where(and(eq(apiKeyNotices.keyId, keyId), isNull(apiKeyNotices.sentAt)));
}

/**
 * Claims up to `limit` due, unsent warning points and marks them sent, in one statement:
 * `FOR UPDATE SKIP LOCKED` lets several instances sweep at once without waiting on each other,
 * and a row is claimed by exactly one of them. Run inside the transaction that records the
 * events, so a crash sends neither.
 */
export async function claimDueNotices(db: Executor, now: Date, limit: number) {
  const due = db
    .select({ keyId: apiKeyNotices.keyId, point: apiKeyNotices.point })
    .from(apiKeyNotices)
    .where(and(isNull(apiKeyNotices.sentAt), lte(apiKeyNotices.dueAt, now)))
    .orderBy(apiKeyNotices.dueAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(apiKeyNotices)
    .set({ sentAt: now })
    .where(sql`(${apiKeyNotices.keyId}, ${apiKeyNotices.point}) in (${due})`)
    .returning({ keyId: apiKeyNotices.keyId, point: apiKeyNotices.point });
  if (claimed.length === 0) return [];
  const keys = await db
    .select()
    .from(apiKeys)
    .where(
      inArray(
        apiKeys.id,
        claimed.map((c) => c.keyId),
      ),
    );
  const byId = new Map(keys.map((k) => [k.id, k]));
  return claimed.flatMap((c) => {
    const key = byId.get(c.keyId);
    return key ? [{ point: c.point, key }] : [];
  });
}
