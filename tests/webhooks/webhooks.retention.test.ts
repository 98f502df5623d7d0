import { expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import { webhookDeliveries, webhookEvents } from "../../src/db/schema/index.ts";
import { createLogger } from "../../src/logger.ts";
import { defaultDispatcherOptions, WebhookDispatcher } from "../../src/outbox/dispatcher.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import { createWebhook, webhookMember } from "../helpers/webhooks.ts";

const DAY = 24 * 3_600_000;
const NOW = new Date("2026-11-22T12:00:00Z");
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

/**
 * Events and their delivery logs are kept 30 days: past that, once no delivery of an event is
 * still pending, the dispatcher's hourly purge deletes both.
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("settled events older than 30 days go with their deliveries; pending and recent stay", async () => {
    const { key, organizationId } = await webhookMember(make);
    const hook = await createWebhook(app, key);
    const { db: orm } = db.database;
    const event = async (createdAt: Date, status: string, extra = {}) => {
      const [row] = await orm
        .insert(webhookEvents)
        .values({ organizationId, type: "project.created", payload: {}, createdAt })
        .returning({ id: webhookEvents.id });
      const [delivery] = await orm
        .insert(webhookDeliveries)
        .values({
          eventId: row?.id as string,
          subscriptionId: hook.id,
          status,
          createdAt,
          ...extra,
        })
        .returning({ id: webhookDeliveries.id });
      return { eventId: row?.id as string, deliveryId: delivery?.id as string };
    };
    const oldDelivered = await event(ago(31), "delivered", { deliveredAt: ago(31) });
    const oldFailed = await event(ago(40), "failed");
    // a retry still due (a manual retry of an old delivery, say): kept until it settles
    const oldPending = await event(ago(31), "pending", {
      nextAttemptAt: new Date(NOW.getTime() + 60_000),
    });
    const recent = await event(ago(29), "delivered", { deliveredAt: ago(29) });

    const logs: Record<string, unknown>[] = [];
    const logger = createLogger("info", (line) => logs.push(JSON.parse(line)));
    const dispatcher = new WebhookDispatcher(
      db.database,
      logger,
      () => NOW,
      defaultDispatcherOptions(false),
    );
    expect(await dispatcher.purge()).toBe(2);

    const events = await orm
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(eq(webhookEvents.organizationId, organizationId));
    expect(events.map((e) => e.id).sort()).toEqual([oldPending.eventId, recent.eventId].sort());
    const deliveries = await send(app, `/api/webhooks/${hook.id}/deliveries`, { key });
    expect(deliveries.status).toBe(200);
    const listed = (await deliveries.json()).data.map((d: { id: string }) => d.id);
    expect(listed.sort()).toEqual([oldPending.deliveryId, recent.deliveryId].sort());
    expect(
      await orm
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.id, [oldDelivered.deliveryId, oldFailed.deliveryId])),
      "the purged events' deliveries are gone with them",
    ).toEqual([]);
    expect(logs.find((l) => l.msg === "old webhook events purged")).toMatchObject({ events: 2 });

    expect(await dispatcher.purge(), "nothing left to purge").toBe(0);
  });

  test("a backlog larger than one batch is purged in one run", async () => {
    const { key, organizationId } = await webhookMember(make);
    const hook = await createWebhook(app, key);
    const { db: orm } = db.database;
    const events = await orm
      .insert(webhookEvents)
      .values(
        Array.from({ length: 1_005 }, () => ({
          organizationId,
          type: "project.updated",
          payload: {},
          createdAt: ago(45),
        })),
      )
      .returning({ id: webhookEvents.id });
    await orm.insert(webhookDeliveries).values(
      events.map((e) => ({
        eventId: e.id,
        subscriptionId: hook.id,
        status: "delivered",
        createdAt: ago(45),
      })),
    );
    const dispatcher = new WebhookDispatcher(
      db.database,
      createLogger("silent"),
      () => NOW,
      defaultDispatcherOptions(false),
    );
    expect(await dispatcher.purge()).toBe(1_005);
    const left = await send(app, `/api/webhooks/${hook.id}/deliveries`, { key });
    expect((await left.json()).pagination.total).toBe(0);
  });
}

function running(driver: DriverName) {
  const { app, db, make } = useTestApp(driver, { now: () => NOW, webhooks: { purgeEveryMs: 50 } });

  test("a running service purges on its own timer", async () => {
    const { key, organizationId } = await webhookMember(make);
    await createWebhook(app, key);
    const { db: orm } = db.database;
    await orm
      .insert(webhookEvents)
      .values({ organizationId, type: "project.deleted", payload: {}, createdAt: ago(31) });
    const stored = () =>
      orm.select().from(webhookEvents).where(eq(webhookEvents.organizationId, organizationId));
    await eventually(async () => (await stored()).length === 0, "the old event purged", 5_000);
  });
}

describeEachDriver("webhook retention", suite);
describeEachDriver("webhook retention, on a timer", running);
