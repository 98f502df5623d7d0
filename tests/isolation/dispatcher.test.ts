import { afterAll, expect, test } from "bun:test";
import { eq, inArray } from "drizzle-orm";
import {
  webhookDeliveries,
  webhookEvents,
  webhookSubscriptions,
} from "../../src/db/schema/index.ts";
import { purgeEvents } from "../../src/outbox/delivery-store.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";
import { createWebhook } from "../helpers/webhooks.ts";
import { twoOrganizations } from "./helpers.ts";

/**
 * The dispatcher's claims and outcomes across organizations: one organization's failing or
 * gone receiver never disables, delays or receives another's deliveries. Loopback receivers
 * only (ALLOW_PRIVATE_WEBHOOK_URLS), with retries shortened to milliseconds.
 */
const FAST = { backoffMs: [20, 20, 20], jitter: 0, pollMs: 20, timeoutMs: 2000 };

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver, {
    env: { ALLOW_PRIVATE_WEBHOOK_URLS: "true" },
    webhooks: FAST,
  });
  const receivers: ReturnType<typeof startReceiver>[] = [];
  afterAll(() => {
    for (const r of receivers) r.stop();
  });

  async function subscribe(key: string, script: number[]) {
    let secret: string | undefined;
    const receiver = startReceiver(() => secret, { script });
    receivers.push(receiver);
    const hook = await createWebhook(app, key, { url: receiver.url, events: ["project.created"] });
    secret = hook.secret;
    return { receiver, hook };
  }

  const subscription = async (id: string) => {
    const [row] = await db.database.db
      .select()
      .from(webhookSubscriptions)
      .where(eq(webhookSubscriptions.id, id));
    return row;
  };
  const deliveriesOf = (subscriptionId: string) =>
    db.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, subscriptionId));

  test("A's receiver failing then gone disables A only; B's deliveries arrive, B's subscription stays healthy", async () => {
    const { a, b } = await twoOrganizations(make);
    const gone = await subscribe(a.key, [500, 410]);
    const fine = await subscribe(b.key, []);
    const aProject = await (
      await send(app, "/api/projects", { key: a.key, body: { name: "A" } })
    ).json();
    const bProject = await (
      await send(app, "/api/projects", { key: b.key, body: { name: "B" } })
    ).json();
    await eventually(
      async () => (await subscription(gone.hook.id))?.active === false,
      "A disabled",
    );
    await eventually(
      async () => (await deliveriesOf(fine.hook.id)).every((d) => d.status === "delivered"),
      "B delivered",
    );
    expect(await subscription(fine.hook.id)).toMatchObject({ active: true, failingSince: null });
    expect((await deliveriesOf(fine.hook.id)).map((d) => [d.status, d.attempts])).toEqual([
      ["delivered", 1],
    ]);
    expect(fine.receiver.received.map((r) => r.body.data.project.id)).toEqual([bProject.id]);
    expect(gone.receiver.received.map((r) => r.body.data.project.id)).toEqual([
      aProject.id,
      aProject.id,
    ]);
    expect((await deliveriesOf(gone.hook.id)).map((d) => d.status)).toEqual(["failed"]);
  });

  test("retention purges A's settled old event and keeps B's old event that is still pending", async () => {
    const { a, b } = await twoOrganizations(make);
    const old = new Date(Date.now() - 40 * 86_400_000);
    const { db: d } = db.database;
    const made = [];
    for (const [member, status] of [
      [a, "delivered"],
      [b, "pending"],
    ] as const) {
      const [sub] = await d
        .insert(webhookSubscriptions)
        .values({
          organizationId: member.organizationId,
          url: "http://127.0.0.1:9/never",
          events: ["project.created"],
          secret: "whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0c2VjcmV0",
          // inactive: the running dispatcher leaves it alone
          active: false,
        })
        .returning();
      const [event] = await d
        .insert(webhookEvents)
        .values({
          organizationId: member.organizationId,
          type: "project.created",
          payload: {},
          createdAt: old,
        })
        .returning();
      await d.insert(webhookDeliveries).values({
        eventId: event?.id as string,
        subscriptionId: sub?.id as string,
        status,
        nextAttemptAt: status === "pending" ? new Date(Date.now() + 86_400_000) : null,
        createdAt: old,
      });
      made.push(event?.id as string);
    }
    await purgeEvents(d, new Date(Date.now() - 30 * 86_400_000), 1000);
    const left = await d
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(inArray(webhookEvents.id, made));
    expect(left.map((e) => e.id)).toEqual([made[1] as string]);
  });
}

describeEachDriver("tenant isolation: webhook dispatcher", suite);
