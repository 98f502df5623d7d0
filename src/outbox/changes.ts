import type { Executor } from "../db/client.ts";
import type { WebhookEvent } from "./events.ts";
import { type FieldChange, fieldChanges, type LiveResource, notifyLive } from "./live-events.ts";

export interface ChangeInput {
  organizationId: string;
  /** the feature's declared event (its events.ts) */
  event: WebhookEvent;
  /** the event's `data`: the record as its REST GET answers it */
  data: Record<string, unknown>;
  /** the change's time (the infrastructure's clock) */
  now: Date;
  /** `data.changes` of an update: `{ <field>: { from, to } }` */
  changes?: Record<string, { from: unknown; to: unknown }>;
  /** what GraphQL subscribers see: the resource and its record in GraphQL's shape (a row) */
  live: {
    resource: LiveResource;
    record: { id: string };
    comment?: Record<string, unknown>;
  };
}

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/**
 * A change of a ticket, alert or equipment record, told to whoever listens, through `tx` (the
 * change's own transaction, so all or nothing is kept): the webhook outbox, and every
 * instance's GraphQL subscribers (a NOTIFY delivered at commit, or a Redis message after it).
 */
export async function recordChange(tx: Executor, input: ChangeInput): Promise<void> {
  const { changes, live, event, data, organizationId, now } = input;
  await event.record(tx, { organizationId, data: changes ? { ...data, changes } : data, now });
  const at = now;
  await notifyLive(tx, {
    type: event.type,
    occurredAt: at.toISOString(),
    organizationId: input.organizationId,
    resource: live.resource,
    record: plain(live.record) as { id: string },
    changes: fieldChanges(changes) satisfies FieldChange[],
    comment: live.comment ? plain(live.comment) : null,
  });
}
