import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { rowsOf } from "../db/queries/day-partitions.ts";
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
 *
 * One statement, one round trip: the subscriptions are found, the event and its deliveries
 * inserted and the dispatcher notified together (a data-modifying WITH runs every part once,
 * and the deliveries' foreign key is checked at the statement's end, after the event's insert).
 * Four statements did the same before: a write's round trips are most of what it costs beside
 * a hand-written one (docs/decisions.md §38).
 */
export async function recordEvent(tx: Executor, input: RecordEventInput): Promise<string | null> {
  const now = (input.now ?? new Date()).toISOString();
  // the body receivers get, as JSON (dates as ISO text, undefined members left out)
  const payload = JSON.stringify({ type: input.type, timestamp: now, data: input.data });
  const s = webhookSubscriptions;
  const result = await tx.execute(sql`
    with wanted as (
      select ${s.id} as id from ${s}
      where ${s.organizationId} = ${input.organizationId} and ${s.active}
        and ${s.events} @> array[${input.type}]::text[]
    ), event as (
      insert into ${webhookEvents} (organization_id, type, payload, created_at)
      select ${input.organizationId}, ${input.type}, ${payload}::jsonb, ${now}::timestamptz
      where exists (select from wanted)
      returning id
    ), deliveries as (
      insert into ${webhookDeliveries} (event_id, subscription_id, next_attempt_at, created_at)
      select event.id, wanted.id, ${now}::timestamptz, ${now}::timestamptz from event, wanted
    )
    select id, pg_notify(${WEBHOOK_CHANNEL}, id::text) from event`);
  return rowsOf<{ id: string }>(result)[0]?.id ?? null;
}
