import { sql } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { maintenanceClaims } from "../schema/index.ts";

/**
 * Claims the current turn of job `name` for this instance: true when its turn was due (or it
 * never ran) and this statement moved it `periodMs` ahead; false when another instance holds
 * it. One statement, so two instances never both win a turn.
 */
export async function claimTurn(
  db: Executor,
  name: string,
  now: Date,
  periodMs: number,
): Promise<boolean> {
  const next = new Date(now.getTime() + periodMs);
  const won = await db
    .insert(maintenanceClaims)
    .values({ name, nextRunAt: next, claimedAt: now })
    .onConflictDoUpdate({
      target: maintenanceClaims.name,
      set: { nextRunAt: next, claimedAt: now },
      // a raw Date is not a parameter postgres.js takes: its ISO text is
      setWhere: sql`${maintenanceClaims.nextRunAt} <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ name: maintenanceClaims.name });
  return won.length > 0;
}
