import { and, asc, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "../../db/client.ts";
import { type PageWindow, windowed } from "../../db/paging.ts";
import {
  organizations,
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../../db/schema/index.ts";

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

/** Named data access for webhook subscriptions and their delivery log, per organization. */

const ofOrg = (organizationId: string, id: string) =>
  and(eq(webhookSubscriptions.organizationId, organizationId), eq(webhookSubscriptions.id, id));

export function listSubscriptions(db: Executor, organizationId: string, window: PageWindow) {
  const mine = eq(webhookSubscriptions.organizationId, organizationId);
  const order = [webhookSubscriptions.createdAt, webhookSubscriptions.id];
  const query = db.select().from(webhookSubscriptions).where(mine).$dynamic();
  return windowed(query, webhookSubscriptions, mine, order, window);
}

export function countSubscriptions(db: Executor, organizationId: string) {
  return db.$count(webhookSubscriptions, eq(webhookSubscriptions.organizationId, organizationId));
}

export async function findSubscription(db: Executor, organizationId: string, id: string) {
  const [row] = await db.select().from(webhookSubscriptions).where(ofOrg(organizationId, id));
  return row;
}

/** Serialises subscription creation per organization, so the 20-per-organization cap holds. */
export async function lockOrganization(db: Executor, organizationId: string) {
  await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
}

export async function insertSubscription(
  db: Executor,
  values: {
    id: string;
    organizationId: string;
    url: string;
    events: string[];
    secretSealed: unknown;
    at: Date;
  },
) {
  const { at, ...rest } = values;
  const [row] = await db
    .insert(webhookSubscriptions)
    .values({ ...rest, createdAt: at, updatedAt: at })
    .returning();
  return row as SubscriptionRow;
}

export async function updateSubscription(
  db: Executor,
  organizationId: string,
  id: string,
  changes: Partial<typeof webhookSubscriptions.$inferInsert>,
) {
  const [row] = await db
    .update(webhookSubscriptions)
    .set(changes)
    .where(ofOrg(organizationId, id))
    .returning();
  return row;
}

export async function deleteSubscription(db: Executor, organizationId: string, id: string) {
  const [row] = await db.delete(webhookSubscriptions).where(ofOrg(organizationId, id)).returning();
  return row;
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  subscriptionId: webhookDeliveries.subscriptionId,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  status: webhookDeliveries.status,
  attempts: webhookDeliveries.attempts,
  lastStatusCode: webhookDeliveries.lastStatusCode,
  lastError: webhookDeliveries.lastError,
  lastAttemptAt: webhookDeliveries.lastAttemptAt,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  leaseUntil: webhookDeliveries.leaseUntil,
  deliveredAt: webhookDeliveries.deliveredAt,
  createdAt: webhookDeliveries.createdAt,
};

export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

export function listDeliveries(db: Executor, subscriptionId: string, window: PageWindow) {
  const its = eq(webhookDeliveries.subscriptionId, subscriptionId);
  const order = [webhookDeliveries.createdAt, webhookDeliveries.id];
  const query = db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(its)
    .$dynamic();
  return windowed(query, webhookDeliveries, its, order, window);
}

export function countDeliveries(db: Executor, subscriptionId: string) {
  return db.$count(webhookDeliveries, eq(webhookDeliveries.subscriptionId, subscriptionId));
}

export async function findDelivery(db: Executor, subscriptionId: string, id: string) {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.subscriptionId, subscriptionId), eq(webhookDeliveries.id, id)));
  return row;
}

/** The delivery's own columns: what an UPDATE … RETURNING can give (no event type). */
const { eventType: _eventType, ...ownDeliveryColumns } = deliveryColumns;

/**
 * Queues one more attempt now (manual retry) and answers the delivery as queued, from the
 * UPDATE itself: a dispatcher may claim it the moment it commits. Undefined while an attempt
 * is in flight.
 */
export async function requeueDelivery(db: Executor, id: string, now: Date) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", nextAttemptAt: now })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now)),
      ),
    )
    .returning(ownDeliveryColumns);
  return row;
}

/**
 * A rotation: the new sealed secret becomes current, the current one previous until `until`
 * (null: dropped at once). Undefined when the subscription is not the organization's.
 */
export async function rotateSecret(
  db: Executor,
  organizationId: string,
  id: string,
  values: { secretSealed: unknown; until: Date | null; at: Date },
) {
  const [row] = await db
    .update(webhookSubscriptions)
    .set({
      secretSealed: values.secretSealed,
      previousSecretSealed: values.until ? sql`${webhookSubscriptions.secretSealed}` : null,
      previousSecretUntil: values.until,
      secret: null,
      updatedAt: values.at,
    })
    .where(ofOrg(organizationId, id))
    .returning({ id: webhookSubscriptions.id });
  return row;
}

/** Rows still holding a clear secret (written before secrets were encrypted). */
export function clearSecrets(db: Executor, limit: number) {
  return db
    .select({ id: webhookSubscriptions.id, secret: webhookSubscriptions.secret })
    .from(webhookSubscriptions)
    .where(isNotNull(webhookSubscriptions.secret))
    .limit(limit);
}

/** Replaces a clear secret by its sealed form, unless the row changed meanwhile. */
export async function sealClearSecret(db: Executor, id: string, secret: string, sealed: unknown) {
  await db
    .update(webhookSubscriptions)
    .set({ secretSealed: sealed, secret: null })
    .where(and(eq(webhookSubscriptions.id, id), eq(webhookSubscriptions.secret, secret)));
}

const notUnder = (column: AnyPgColumn, keyId: string) =>
  and(isNotNull(column), sql`${column}->>'k' is distinct from ${keyId}`);

/** Rows holding a sealed secret the key `keyId` did not seal, after `after` in id order. */
export function sealedNotUnder(db: Executor, keyId: string, after: string | null, limit: number) {
  const s = webhookSubscriptions;
  return db
    .select({
      id: s.id,
      secretSealed: s.secretSealed,
      previousSecretSealed: s.previousSecretSealed,
    })
    .from(s)
    .where(
      and(
        after === null ? undefined : gt(s.id, after),
        or(notUnder(s.secretSealed, keyId), notUnder(s.previousSecretSealed, keyId)),
      ),
    )
    .orderBy(asc(s.id))
    .limit(limit);
}

const unchanged = (column: AnyPgColumn, value: unknown): SQL =>
  value == null ? sql`${column} is null` : sql`${column} = ${JSON.stringify(value)}::jsonb`;

/** Writes a row's secrets sealed again, unless the row changed meanwhile (a rotation). */
export async function resealRow(
  db: Executor,
  id: string,
  before: { secretSealed: unknown; previousSecretSealed: unknown },
  after: { secretSealed: unknown; previousSecretSealed: unknown },
) {
  const s = webhookSubscriptions;
  const rows = await db
    .update(s)
    .set(after)
    .where(
      and(
        eq(s.id, id),
        unchanged(s.secretSealed, before.secretSealed),
        unchanged(s.previousSecretSealed, before.previousSecretSealed),
      ),
    )
    .returning({ id: s.id });
  return rows.length > 0;
}
