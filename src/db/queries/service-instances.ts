import { eq, gt, lt } from "drizzle-orm";
import type { Executor } from "../client.ts";
import { serviceInstances } from "../schema/index.ts";

/**
 * The running instances of the service, so that an auth change can wait for each live one to
 * acknowledge it (src/auth/key-store.ts). Each instance heartbeats its row.
 */

export async function registerInstance(db: Executor, id: string, forgetBefore: Date) {
  await db.delete(serviceInstances).where(lt(serviceInstances.seenAt, forgetBefore));
  await db.insert(serviceInstances).values({ id });
}

export async function deregisterInstance(db: Executor, id: string) {
  await db.delete(serviceInstances).where(eq(serviceInstances.id, id));
}

export async function touchInstance(db: Executor, id: string, at: Date) {
  await db.update(serviceInstances).set({ seenAt: at }).where(eq(serviceInstances.id, id));
}

/** Ids of the instances seen since the given time. */
export async function instancesSeenSince(db: Executor, since: Date): Promise<string[]> {
  const rows = await db
    .select({ id: serviceInstances.id })
    .from(serviceInstances)
    .where(gt(serviceInstances.seenAt, since));
  return rows.map((row) => row.id);
}
