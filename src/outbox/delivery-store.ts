import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { webhookDeliveries, webhookSubscriptions } from "../db/schema/index.ts";
import { recordEvent } from "./outbox.ts";

/** The dispatcher's statements. Every write after a claim is guarded by the claim's lease. */

const ts = (at: Date) => sql`${at.toISOString()}::timestamptz`;

function rowsOf<T>(result: unknown): T[] {
  // postgres.js answers an array of rows, PGlite an object with `rows`
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Deletes up to `limit` events created before `before` that have no delivery still pending,
 * and their deliveries with them (ON DELETE CASCADE). Answers how many events went.
 */
export async function purgeEvents(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    delete from webhook_events where id in (
      select e.id from webhook_events e
      where e.created_at < ${ts(before)}
        and not exists (
          select 1 from webhook_deliveries d where d.event_id = e.id and d.status = 'pending'
        )
      limit ${limit}
    )
    returning id`);
  return rowsOf(result).length;
}

export interface Claim {
  id: string;
  attempts: number;
  leaseUntil: Date;
  /** what the send needs, read by the claim itself so the send starts at once */
  subscriptionId: string;
  url: string;
  /** a legacy row's clear secret (sealed at the next start), else null */
  secret: string | null;
  /** the sealed secret, and the one before the last rotation while its grace lasts */
  secretSealed: unknown;
  previousSecretSealed: unknown;
  previousSecretUntil: Date | null;
  active: boolean;
  failingSince: Date | null;
  payload: unknown;
}

export async function claimDue(
  db: Executor,
  options: { now: Date; leaseUntil: Date; limit: number; perSubscription: number },
): Promise<Claim[]> {
  const { now, leaseUntil, limit, perSubscription } = options;
  const due = sql`d.status = 'pending' and d.next_attempt_at <= ${ts(now)}
    and (d.lease_until is null or d.lease_until <= ${ts(now)})`;
  const result = await db.execute(sql`
    with busy as (
      select subscription_id, count(*) as n from webhook_deliveries
      where status = 'pending' and lease_until > ${ts(now)}
      group by subscription_id
    ), ranked as (
      select d.id, d.next_attempt_at, coalesce(b.n, 0) as busy,
        row_number() over (partition by d.subscription_id order by d.next_attempt_at, d.id) as rn
      from webhook_deliveries d left join busy b on b.subscription_id = d.subscription_id
      where ${due}
    ), candidates as (
      select id from ranked where rn + busy <= ${perSubscription}
      order by next_attempt_at, id
      limit ${limit}
    ), claimed as (
      select d.id from webhook_deliveries d
      where d.id in (select id from candidates) and ${due}
      for update skip locked
    )
    update webhook_deliveries d
    set lease_until = ${ts(leaseUntil)}, attempts = d.attempts + 1, last_attempt_at = ${ts(now)}
    from claimed
      join webhook_deliveries x on x.id = claimed.id
      join webhook_subscriptions s on s.id = x.subscription_id
      join webhook_events e on e.id = x.event_id
    where d.id = claimed.id
    returning d.id, d.attempts, s.id as subscription_id, s.url, s.secret, s.secret_sealed,
      s.previous_secret_sealed, s.previous_secret_until, s.active, s.failing_since, e.payload`);
  return rowsOf<ClaimRow>(result).map((row) => ({
    id: row.id,
    attempts: Number(row.attempts),
    leaseUntil,
    subscriptionId: row.subscription_id,
    url: row.url,
    secret: row.secret,
    secretSealed: jsonOf(row.secret_sealed),
    previousSecretSealed: jsonOf(row.previous_secret_sealed),
    previousSecretUntil: row.previous_secret_until ? new Date(row.previous_secret_until) : null,
    active: row.active,
    failingSince: row.failing_since ? new Date(row.failing_since) : null,
    payload: jsonOf(row.payload),
  }));
}

// drivers differ on whether raw jsonb arrives parsed
const jsonOf = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

interface ClaimRow {
  id: string;
  attempts: number | string;
  subscription_id: string;
  url: string;
  secret: string | null;
  secret_sealed: unknown;
  previous_secret_sealed: unknown;
  previous_secret_until: Date | string | null;
  active: boolean;
  failing_since: Date | string | null;
  payload: unknown;
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

/**
 * Turns an active subscription off and, in the same transaction, tells the organization's other
 * active subscriptions that chose `webhook.disabled` (the disabled one no longer matches).
 * A subscription already off is left as it is, so the event is sent once.
 */
export function disableSubscription(
  db: Executor,
  subscriptionId: string,
  reason: string,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookSubscriptions)
      .set({ active: false, disabledReason: reason, updatedAt: now })
      .where(
        and(eq(webhookSubscriptions.id, subscriptionId), eq(webhookSubscriptions.active, true)),
      )
      .returning();
    if (!row) return;
    await recordEvent(tx, {
      organizationId: row.organizationId,
      type: "webhook.disabled",
      data: {
        webhookId: row.id,
        url: row.url,
        reason,
        failingSince: row.failingSince?.toISOString() ?? null,
      },
      now,
    });
  });
}
