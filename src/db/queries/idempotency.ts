/**
 * The SQL of the Idempotency-Key store (src/http/idempotency.ts). A record belongs to one API
 * key: every statement is confined by `apiKeyId`, so two keys (and so two organizations) never
 * see, block or replace each other's records.
 */
import { and, eq, lt } from "drizzle-orm";
import type { Database } from "../client.ts";
import { idempotencyKeys } from "../schema/index.ts";

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

/** Takes the key for this request; false when a record of it already exists. */
export async function reserveKey(
  database: Database,
  record: { apiKeyId: string; key: string; requestHash: string; createdAt: Date },
): Promise<boolean> {
  const [reserved] = await database.db
    .insert(idempotencyKeys)
    .values(record)
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  return reserved !== undefined;
}

export function findKey(
  database: Database,
  apiKeyId: string,
  key: string,
): Promise<IdempotencyRecord | undefined> {
  return database.db.query.idempotencyKeys.findFirst({
    where: and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)),
  });
}

/** Deletes the record if it is still the one created at `createdAt` (a stale one taken over). */
export async function dropStaleKey(
  database: Database,
  apiKeyId: string,
  key: string,
  createdAt: Date,
): Promise<void> {
  await database.db
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.apiKeyId, apiKeyId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.createdAt, createdAt),
      ),
    );
}

/** Records the answer of the request that held the reservation. */
export async function completeKey(
  database: Database,
  apiKeyId: string,
  key: string,
  answer: { statusCode: number; responseBody: unknown; completedAt: Date },
): Promise<void> {
  await database.db
    .update(idempotencyKeys)
    .set(answer)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)));
}

/** Gives the key back after a failed request, so a retry runs again. */
export async function releaseKey(database: Database, apiKeyId: string, key: string) {
  await database.db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.apiKeyId, apiKeyId), eq(idempotencyKeys.key, key)));
}

/** Drops every key's records created before `before`. */
export async function pruneKeysBefore(database: Database, before: Date): Promise<void> {
  await database.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, before));
}
