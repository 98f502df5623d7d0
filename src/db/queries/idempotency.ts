/**
 * The SQL of the Idempotency-Key store (src/http/idempotency.ts). A record belongs to one API
 * key: every statement is confined by `apiKeyId`, so two keys (and so two organizations) never
 * see, block or replace each other's records.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import type { Database } from "../client.ts";
import { idempotencyKeys } from "../schema/index.ts";
import { rowsOf } from "./day-partitions.ts";

export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;

/** The outcome of a reservation: taken, or the record that holds the key (none: it just went). */
export type Reservation = { reserved: true } | { reserved: false; existing?: IdempotencyRecord };

interface RawRecord {
  reserved: number;
  api_key_id: string | null;
  key: string;
  request_hash: string;
  status_code: number | null;
  response_body: unknown;
  created_at: string | Date;
  completed_at: string | Date | null;
}

/**
 * Takes the key for this request, or answers the record that already holds it, in one
 * statement after a lock. The table is partitioned by `created_at`, which its primary key must
 * include, so the key alone is not unique there: a transaction-scoped advisory lock on
 * (API key, key) makes the check and the insert one step (the statement after the lock sees
 * every record committed while it waited).
 */
export async function reserveKey(
  database: Database,
  record: { apiKeyId: string; key: string; requestHash: string; createdAt: Date },
): Promise<Reservation> {
  const row = await database.db.transaction(async (tx) => {
    const slot = `idempotency:${record.apiKeyId}:${record.key}`;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${slot}, 0))`);
    const result = await tx.execute(sql`
      with existing as (
        select * from idempotency_keys
        where api_key_id = ${record.apiKeyId}::uuid and key = ${record.key}::text
        order by created_at desc limit 1
      ), taken as (
        insert into idempotency_keys (api_key_id, key, request_hash, created_at)
        select ${record.apiKeyId}::uuid, ${record.key}::text, ${record.requestHash}::text,
          ${record.createdAt.toISOString()}::timestamptz
        where not exists (select 1 from existing)
        returning 1
      )
      select (select count(*) from taken)::int as reserved, existing.*
      from (select 1) as one left join existing on true`);
    return rowsOf<RawRecord>(result)[0];
  });
  if (row && Number(row.reserved) > 0) return { reserved: true };
  if (!row || row.api_key_id === null) return { reserved: false };
  const existing: IdempotencyRecord = {
    apiKeyId: row.api_key_id,
    key: row.key,
    requestHash: row.request_hash,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    responseBody: row.response_body,
    createdAt: new Date(row.created_at),
    completedAt: row.completed_at === null ? null : new Date(row.completed_at),
  };
  return { reserved: false, existing };
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
