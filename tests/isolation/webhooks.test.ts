import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import {
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../../src/db/schema/index.ts";
import { WebhookSecretBox } from "../../src/outbox/secret-box.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { ALL_EVENTS, createWebhook, PUBLIC_URL } from "../helpers/webhooks.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

/**
 * Webhook subscriptions, deliveries and the outbox across two organizations. No dispatcher
 * runs here (deliveries stay pending and nothing is sent; the subscriptions' public URL is
 * never contacted): dispatcher.test.ts covers sending.
 */
function suite(driver: DriverName) {
  const clock = manualClock(Date.parse("2026-03-01T10:00:00Z"));
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  const json = async (
    path: string,
    key: string,
    init: { method?: string; body?: unknown } = {},
  ) => {
    const response = await send(app, path, { key, ...init });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
    return { status: response.status, body: (await response.json()) as any };
  };

  /** A and B each subscribed to every event, A with one project (so one pending delivery). */
  async function subscribedPair() {
    const { a, b } = await twoOrganizations(make);
    const aHook = await createWebhook(app, a.key, { url: PUBLIC_URL, events: ALL_EVENTS });
    const bHook = await createWebhook(app, b.key, { url: PUBLIC_URL, events: ALL_EVENTS });
    expect((await json("/api/projects", a.key, { body: { name: "A project" } })).status).toBe(201);
    const [aDelivery] = await db.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, aHook.id));
    if (!aDelivery) throw new Error("A's project event made no delivery");
    return { a, b, aHook, bHook, aDelivery };
  }

  test("outbox: B's project events fan out to B's subscription only, never to A's", async () => {
    const { a, b, aHook, bHook } = await subscribedPair();
    let bProjectId = "";
    await expectUntouched(app, a.organizationId, async () => {
      const created = await json("/api/projects", b.key, { body: { name: "B project" } });
      bProjectId = created.body.id;
      await json(`/api/projects/${created.body.id}`, b.key, {
        method: "PATCH",
        body: { name: "B project 2" },
      });
      await json(`/api/projects/${created.body.id}`, b.key, { method: "DELETE" });
    });
    const bDeliveries = await json(`/api/webhooks/${bHook.id}/deliveries`, b.key);
    expect(bDeliveries.body.data.map((d: { eventType: string }) => d.eventType).sort()).toEqual(
      [...ALL_EVENTS].sort(),
    );
    const aDeliveries = await json(`/api/webhooks/${aHook.id}/deliveries`, a.key);
    expect(aDeliveries.body.data.map((d: { eventType: string }) => d.eventType)).toEqual([
      "project.created",
    ]);
    // the stored event is B's, at the injected clock's time, with the Standard Webhooks body
    const [event] = await db.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.organizationId, b.organizationId))
      .orderBy(webhookEvents.createdAt)
      .limit(1);
    expect(event?.createdAt.toISOString()).toBe(clock.now().toISOString());
    expect(event?.payload).toEqual({
      type: "project.created",
      timestamp: clock.now().toISOString(),
      data: { project: expect.objectContaining({ id: bProjectId, name: "B project" }) },
    });
  });

  test("outbox: an organization without subscriptions stores no event, and others' subscriptions get nothing", async () => {
    const { a, aHook } = await subscribedPair();
    const loner = await make.member({ scopes: ["projects:read", "projects:write"] });
    await expectUntouched(app, a.organizationId, async () => {
      const created = await json("/api/projects", loner.key, { body: { name: "Alone" } });
      expect(created.status).toBe(201);
    });
    const events = await db.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.organizationId, loner.organizationId));
    expect(events).toEqual([]);
    const aDeliveries = await json(`/api/webhooks/${aHook.id}/deliveries`, a.key);
    expect(aDeliveries.body.data).toHaveLength(1);
  });

  test("subscriptions: B cannot read, change or delete A's; B's list and writes stay in B", async () => {
    const { a, b, aHook, bHook } = await subscribedPair();
    await expectUntouched(app, a.organizationId, async () => {
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { active: false }],
        ["DELETE", undefined],
      ] as const) {
        const response = await json(`/api/webhooks/${aHook.id}`, b.key, { method, body });
        expect({ method, ...response }).toEqual({
          method,
          status: 404,
          body: { error: "Webhook not found" },
        });
      }
      const listed = await json("/api/webhooks", b.key);
      expect(listed.body.data.map((h: { id: string }) => h.id)).toEqual([bHook.id]);
      expect(listed.body.pagination.total, "A's webhook is not counted").toBe(1);
      const patched = await json(`/api/webhooks/${bHook.id}`, b.key, {
        method: "PATCH",
        body: { events: ["project.deleted"] },
      });
      expect(patched.status).toBe(200);
      const extra = await createWebhook(app, b.key, { url: PUBLIC_URL, events: ALL_EVENTS });
      expect((await json(`/api/webhooks/${extra.id}`, b.key, { method: "DELETE" })).status).toBe(
        200,
      );
    });
  });

  test("deliveries: B cannot list, read through its own webhook, or retry A's deliveries", async () => {
    const { a, b, aHook, bHook, aDelivery } = await subscribedPair();
    await expectUntouched(app, a.organizationId, async () => {
      const listed = await json(`/api/webhooks/${aHook.id}/deliveries`, b.key);
      expect(listed).toEqual({ status: 404, body: { error: "Webhook not found" } });
      const viaA = await json(`/api/webhooks/${aHook.id}/deliveries/${aDelivery.id}/retry`, b.key, {
        method: "POST",
      });
      expect(viaA).toEqual({ status: 404, body: { error: "Webhook not found" } });
      // B's own webhook id with A's delivery id: the delivery must belong to that webhook
      const viaB = await json(`/api/webhooks/${bHook.id}/deliveries/${aDelivery.id}/retry`, b.key, {
        method: "POST",
      });
      expect(viaB).toEqual({ status: 404, body: { error: "Delivery not found" } });
      const own = await json(`/api/webhooks/${bHook.id}/deliveries`, b.key);
      expect(own.body.data).toEqual([]);
    });
  });

  test("secrets: B cannot rotate A's; start-up sealing seals each clear secret to its own row", async () => {
    const { a, b, aHook, bHook } = await subscribedPair();
    await expectUntouched(app, a.organizationId, async () => {
      const refused = await json(`/api/webhooks/${aHook.id}/rotate-secret`, b.key, {
        method: "POST",
        body: { gracePeriodHours: 1 },
      });
      expect(refused).toEqual({ status: 404, body: { error: "Webhook not found" } });
      const own = await json(`/api/webhooks/${bHook.id}/rotate-secret`, b.key, { method: "POST" });
      expect(own.status).toBe(200);
    });
    const legacy = (n: number) => `whsec_${btoa(`legacy secret number ${n} padded!!`)}`;
    const rows = await db.database.db
      .insert(webhookSubscriptions)
      .values(
        [a, b].map((member, n) => ({
          organizationId: member.organizationId,
          url: PUBLIC_URL,
          events: ALL_EVENTS,
          secret: legacy(n),
        })),
      )
      .returning();
    expect(await app.services.webhooks.sealClearSecrets()).toBe(2);
    const box = new WebhookSecretBox(undefined);
    for (const [n, inserted] of rows.entries()) {
      const [stored] = await db.database.db
        .select()
        .from(webhookSubscriptions)
        .where(eq(webhookSubscriptions.id, inserted.id));
      expect(stored?.organizationId).toBe(inserted.organizationId);
      expect(stored?.secret).toBeNull();
      expect(await box.open(inserted.id, stored?.secretSealed)).toBe(legacy(n));
      const other = rows[1 - n] as { id: string };
      expect(
        await box.open(other.id, stored?.secretSealed),
        "not on the other's row",
      ).toBeUndefined();
    }
  });
}

describeEachDriver("tenant isolation: webhooks", suite);
