import { and, arrayContains, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from "../db/schema/index.ts";

/** Channel the dispatcher LISTENs on; the payload is unused (it just wakes up and claims). */
export const WEBHOOK_CHANNEL = "orgit_webhooks";

export interface RecordEventInput {
  organizationId: string;
  /** one of the types the features declare (src/features.ts); events.ts types `data` */
  type: string;
  data: unknown;
  /** event time (the infrastructure's clock); also when the first attempt is due. Defaults to the wall clock. */
  now?: Date;
}

/**
 * Writes an event and one delivery per matching active subscription through `tx`, which must
 * be the transaction that makes the change, so a crash keeps both or neither. The NOTIFY is
 * transactional too: Postgres delivers it at commit and drops it on rollback.
 * Returns the event id, or null when no subscription wants the event (nothing is stored).
 */
export async function recordEvent(tx: Executor, input: RecordEventInput): Promise<string | null> {
  const now = input.now ?? new Date();
  const subscriptions = await tx
    .select({ id: webhookSubscriptions.id })
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.organizationId, input.organizationId),
        eq(webhookSubscriptions.active, true),
        arrayContains(webhookSubscriptions.events, [input.type]),
      ),
    );
  if (subscriptions.length === 0) return null;
  const payload = { type: input.type, timestamp: now.toISOString(), data: input.data };
  const [event] = await tx
    .insert(webhookEvents)
    .values({
      organizationId: input.organizationId,
      type: input.type,
      payload: JSON.parse(JSON.stringify(payload)),
      createdAt: now,
    })
    .returning({ id: webhookEvents.id });
  if (!event) throw new Error("webhook event insert returned no row");
  await tx.insert(webhookDeliveries).values(
    subscriptions.map((s) => ({
      eventId: event.id,
      subscriptionId: s.id,
      nextAttemptAt: now,
      createdAt: now,
    })),
  );
  await tx.execute(sql`select pg_notify(${WEBHOOK_CHANNEL}, ${event.id})`);
  return event.id;
}
