import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { webhookDeliveries, webhookEvents, webhookSubscriptions } from "../db/schema/index.ts";

/** The dispatcher's statements. Every write after a claim is guarded by the claim's lease. */

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

function rowsOf<T>(result: unknown): T[] {
  // postgres.js answers an array of rows, PGlite an object with `rows`
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

export interface Claim {
  id: string;
  attempts: number;
  leaseUntil: Date;
}

/**
 * Leases up to `limit` due deliveries in one statement. `FOR UPDATE SKIP LOCKED` lets several
 * instances claim at once without waiting on or taking each other's rows; the re-checked
 * conditions skip rows another instance leased since this statement's snapshot. At most
 * `perSubscription` deliveries of one subscription are in flight, counting every instance's
 * live leases, so one slow receiver cannot take all the slots. An expired lease (its instance
 * died mid-send) makes the delivery claimable again.
 */
export async function claimDue(
  db: Executor,
  options: { now: Date; leaseUntil: Date; limit: number; perSubscription: number },
): Promise<Claim[]> {
  const { now, leaseUntil, limit, perSubscription } = options;
  const due = sql`d.status = 'pending' and d.next_attempt_at <= ${ts(now)}
    and (d.lease_until is null or d.lease_until <= ${ts(now)})`;
  const result = await db.execute(sql`
    with candidates as (
      select c.id from (
        select d.id, d.subscription_id, d.next_attempt_at,
          row_number() over (partition by d.subscription_id order by d.next_attempt_at, d.id) as rn
        from webhook_deliveries d
        where ${due}
      ) c
      where c.rn + (
        select count(*) from webhook_deliveries f
        where f.subscription_id = c.subscription_id and f.status = 'pending'
          and f.lease_until > ${ts(now)}
      ) <= ${perSubscription}
      order by c.next_attempt_at, c.id
      limit ${limit}
    ), claimed as (
      select d.id from webhook_deliveries d
      where d.id in (select id from candidates) and ${due}
      for update skip locked
    )
    update webhook_deliveries d
    set lease_until = ${ts(leaseUntil)}, attempts = d.attempts + 1, last_attempt_at = ${ts(now)}
    from claimed where d.id = claimed.id
    returning d.id, d.attempts`);
  return rowsOf<{ id: string; attempts: number }>(result).map((row) => ({
    id: row.id,
    attempts: Number(row.attempts),
    leaseUntil,
  }));
}

/** What a send needs: the event body and the subscription's target and secret. */
export async function loadForSend(db: Executor, id: string) {
  const [row] = await db
    .select({
      subscriptionId: webhookSubscriptions.id,
      url: webhookSubscriptions.url,
      secret: webhookSubscriptions.secret,
      active: webhookSubscriptions.active,
      payload: webhookEvents.payload,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookSubscriptions, eq(webhookSubscriptions.id, webhookDeliveries.subscriptionId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, id));
  return row;
}

type DeliveryChanges = Partial<typeof webhookDeliveries.$inferInsert>;

/** Applies the outcome of an attempt, only if this instance still holds the lease. */
export async function finishAttempt(
  db: Executor,
  claim: Claim,
  changes: DeliveryChanges,
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({ ...changes, leaseUntil: null })
    .where(
      and(
        eq(webhookDeliveries.id, claim.id),
        eq(webhookDeliveries.leaseUntil, claim.leaseUntil),
        eq(webhookDeliveries.attempts, claim.attempts),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** Shutdown cut a send short: give the attempt back so the next start sends it at once. */
export function releaseClaim(db: Executor, claim: Claim) {
  return finishAttempt(db, claim, { attempts: claim.attempts - 1 });
}

export function markSubscriptionHealthy(db: Executor, subscriptionId: string) {
  return db
    .update(webhookSubscriptions)
    .set({ failingSince: null })
    .where(eq(webhookSubscriptions.id, subscriptionId));
}

/** Starts (or continues) the subscription's failing streak; answers when it started. */
export async function markSubscriptionFailing(
  db: Executor,
  subscriptionId: string,
  now: Date,
): Promise<Date | null> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({ failingSince: sql`coalesce(${webhookSubscriptions.failingSince}, ${ts(now)})` })
    .where(eq(webhookSubscriptions.id, subscriptionId))
    .returning({ failingSince: webhookSubscriptions.failingSince });
  return row?.failingSince ?? null;
}

export function disableSubscription(
  db: Executor,
  subscriptionId: string,
  reason: string,
  now: Date,
) {
  return db
    .update(webhookSubscriptions)
    .set({ active: false, disabledReason: reason, updatedAt: now })
    .where(eq(webhookSubscriptions.id, subscriptionId));
}
