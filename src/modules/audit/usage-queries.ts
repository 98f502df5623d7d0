/**
 * A key's use for the settings screen: its counts per hour (api_key_usage, written with the
 * audit rows) and, for the part of the last 24 h before its first whole hour, the log itself.
 */
import { and, desc, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { FOLD_SLOT_MS, slotOf } from "../../db/queries/audit-fold.ts";
import { HOUR_MS } from "../../db/queries/audit-log.ts";
import { rowsOf } from "../../db/queries/day-partitions.ts";
import { apiKeyUsage } from "../../db/schema/index.ts";
import { instant } from "./queries.ts";

export interface KeyUsageRows {
  last: { at: Date; ip: string | null } | undefined;
  lastDay: number;
  /** requests per UTC day since `since`, by the day's midnight (ms) */
  daily: Map<number, number>;
}

/**
 * One key's requests: the latest, the count since `dayAgo`, and daily counts since `since` (a
 * midnight), from its counts per hour (api_key_usage, written with the rows); only the part of
 * the 24 h before the first whole hour is counted in the log itself (the key's index, at most
 * an hour of its rows).
 */
export async function keyUsage(
  db: Executor,
  organizationId: string,
  apiKeyId: string,
  since: Date,
  dayAgo: Date,
): Promise<KeyUsageRows> {
  const ofKey = and(
    eq(apiKeyUsage.organizationId, organizationId),
    eq(apiKeyUsage.apiKeyId, apiKeyId),
  );
  const [newest] = await db
    .select({ at: apiKeyUsage.lastAt, ip: apiKeyUsage.lastIp })
    .from(apiKeyUsage)
    .where(ofKey)
    .orderBy(desc(apiKeyUsage.hour))
    .limit(1);
  const wholeHours = new Date(Math.ceil(dayAgo.getTime() / HOUR_MS) * HOUR_MS);
  const day = sql<string>`(extract(epoch from date_trunc('day', ${apiKeyUsage.hour}, 'UTC')) * 1000)::bigint`;
  const rows = await db
    .select({
      day,
      count: sql<number>`sum(${apiKeyUsage.requests})::int`,
      lastDay: sql<number>`(coalesce(sum(${apiKeyUsage.requests}) filter (where ${apiKeyUsage.hour} >= ${wholeHours.toISOString()}::timestamptz), 0))::int`,
    })
    .from(apiKeyUsage)
    .where(and(ofKey, gte(apiKeyUsage.hour, since)))
    .groupBy(day);
  const daily = new Map<number, number>();
  let lastDay = 0;
  for (const row of rows) {
    daily.set(Number(row.day), Number(row.count));
    lastDay += Number(row.lastDay);
  }
  if (wholeHours > dayAgo) {
    // a row wholly after `dayAgo` counts its requests; the rows of its slot count theirs one by
    // one (a row's requests all lie in its slot)
    const from = dayAgo.getTime();
    const result = await db.execute(sql`
      select coalesce(sum(case when r.at >= ${instant(slotOf(from) + FOLD_SLOT_MS)} then r.requests
        else (select count(*) from unnest(coalesce(r.offsets, '{0}'::integer[])) as o(off)
          where r.at + o.off * interval '1 millisecond' >= ${instant(from)}) end), 0)::integer
        as count
      from audit_log r
      where r.organization_id = ${organizationId} and r.api_key_id = ${apiKeyId}
        and r.kind = 'request' and r.at >= ${instant(slotOf(from))}
        and r.at < ${instant(wholeHours.getTime())}`);
    lastDay += Number(rowsOf<{ count: number }>(result)[0]?.count ?? 0);
  }
  return { last: newest, lastDay, daily };
}
