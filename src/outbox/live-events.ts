import { sql } from "drizzle-orm";
import type { Db, Executor } from "../db/client.ts";

/** Channel every instance LISTENs on (Postgres) or SUBSCRIBEs to (Redis) for live changes. */
export const LIVE_CHANNEL = "orgit_live";
/** Postgres refuses NOTIFY payloads from 8000 bytes; a bigger event travels as a reference. */
const NOTIFY_MAX_BYTES = 7_900;

export type LiveResource = "ticket" | "alert" | "equipment";

export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/** What a subscriber receives (the SDL's TicketEvent, AlertEvent, EquipmentEvent). */
export interface LiveEvent {
  type: string;
  occurredAt: string;
  organizationId: string;
  resource: LiveResource;
  /** the record as GraphQL shows it (camelCase) */
  record: Record<string, unknown> & { id: string };
  changes: FieldChange[];
  comment?: Record<string, unknown> | null;
}

const text = (value: unknown) =>
  value === null || value === undefined ? null : typeof value === "string" ? value : String(value);

export const fieldChanges = (changes?: Record<string, { from: unknown; to: unknown }>) =>
  Object.entries(changes ?? {}).map(([field, { from, to }]) => ({
    field,
    from: text(from),
    to: text(to),
  }));

/** Events of a transaction that go to Redis once it has committed (docs/decisions.md §21). */
const afterCommit = new WeakMap<object, string[]>();
const sending = new WeakSet<object>();

/**
 * Makes `db`'s transactions hold their live events back and hand them to `publish` once the
 * transaction has committed (never when it rolled back), in the order they were made. Used
 * when the events travel through Redis, which knows nothing of Postgres transactions.
 */
export function publishAfterCommit(db: Db, publish: (payloads: string[]) => void): void {
  if (sending.has(db)) return;
  sending.add(db);
  const begin = db.transaction.bind(db);
  db.transaction = (async (work, config) => {
    const held: string[] = [];
    const result = await begin((tx) => {
      afterCommit.set(tx, held);
      return work(tx);
    }, config);
    if (held.length > 0) publish(held);
    return result;
  }) as Db["transaction"];
}

/**
 * Tells every instance's subscribers about a change, through `tx`: Postgres delivers the
 * NOTIFY at commit and drops it on rollback, so a stream never sees a change that was undone;
 * with Redis the event waits for the commit (publishAfterCommit).
 */
export async function notifyLive(tx: Executor, event: LiveEvent): Promise<void> {
  const held = afterCommit.get(tx);
  if (held) {
    held.push(JSON.stringify(event));
    return;
  }
  let payload = JSON.stringify(event);
  if (new TextEncoder().encode(payload).length > NOTIFY_MAX_BYTES) {
    const changes = event.changes.map(({ field }) => ({ field, from: null, to: null }));
    payload = JSON.stringify({
      ...event,
      record: { id: event.record.id },
      changes,
      comment: null,
      reference: true,
    });
  }
  await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
}
