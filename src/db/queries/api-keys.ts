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
