import { sql } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { apiKeys } from "../schema/index.ts";

/**
 * Writes the last-use times of many keys in one statement; a time never moves backwards
 * (another instance may have written a later one).
 */
export async function recordLastUse(
  db: Executor,
  batch: readonly (readonly [id: string, at: Date])[],
): Promise<void> {
  const values = sql.join(
    batch.map(([id, at]) => sql`(${id}::uuid, ${at.toISOString()}::timestamptz)`),
    sql`, `,
  );
  await db.execute(sql`
        update ${apiKeys} set last_used_at = v.at
        from (values ${values}) as v(id, at)
        where ${apiKeys.id} = v.id and (${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < v.at)`);
}

/** The last use of old secrets during their grace (after a rotation), with the client address. */
export async function recordGraceUse(
  db: Executor,
  batch: readonly (readonly [id: string, use: { at: Date; ip: string | null }])[],
): Promise<void> {
  const values = sql.join(
    batch.map(
      ([id, use]) => sql`(${id}::uuid, ${use.at.toISOString()}::timestamptz, ${use.ip}::text)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
        update ${apiKeys} set grace_used_at = v.at, grace_used_ip = v.ip
        from (values ${values}) as v(id, at, ip)
        where ${apiKeys.id} = v.id and (${apiKeys.graceUsedAt} is null or ${apiKeys.graceUsedAt} < v.at)`);
}
