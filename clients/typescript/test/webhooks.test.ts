import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  type CreatedWebhook,
  NotFoundError,
  type Orgit,
  verifyWebhook,
  type WebhookEventType,
  WebhookVerificationError,
} from "../src/index.ts";
import {
  collect,
  RELAXED_LIMITS,
  type RecordedRequest,
  rejection,
  START_TIMEOUT_MS,
  startRecorder,
  startService,
  type TestService,
  waitFor,
} from "./helpers.ts";

/**
 * Webhook subscriptions, their delivery log, and a REAL signed delivery: the service (started
 * with ALLOW_PRIVATE_WEBHOOK_URLS=true) posts to a receiver on 127.0.0.1, and verifyWebhook
 * checks what the receiver got. Each test has an organization and a receiver path of its own,
 * so the tests pass alone and in any order.
 */
let service: TestService;
let receiver: ReturnType<typeof startRecorder>;
let paths = 0;

beforeAll(async () => {
  receiver = startRecorder(() => new Response("ok"));
  service = await startService({ label: "client webhooks", env: RELAXED_LIMITS });
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await service?.stop();
  await receiver?.stop();
});

/** A new organization's client and a subscription to a receiver path of its own. */
async function subscribed(events: WebhookEventType[] = ["project.created"]) {
  const client: Orgit = (await service.newOrg({ plan: "FREE" })).client();
  const path = `/hook/${++paths}`;
  const subscription: CreatedWebhook = await client.webhooks.create({
    url: `${receiver.base}${path}`,
    events,
  });
  const hooks = () => receiver.requests.filter((r) => r.path === path);
  return { client, subscription, path, hooks };
}

/** The same, with a project created and its project.created delivery received. */
async function delivered(events?: WebhookEventType[]) {
  const subscribedTo = await subscribed(events);
  const project = await subscribedTo.client.projects.create({
    name: "Hooked project",
    description: "d",
  });
  await waitFor(() => subscribedTo.hooks().length >= 1, "the project.created delivery");
  return { ...subscribedTo, project, first: subscribedTo.hooks()[0] as RecordedRequest };
}

describe("subscriptions", () => {
  test("create answers the subscription and its whsec_ secret once", async () => {
    const { client, subscription, path } = await subscribed();
    expect(client.lastResponse?.status).toBe(201);
    expect(subscription).toMatchObject({
      url: `${receiver.base}${path}`,
      events: ["project.created"],
      active: true,
    });
    expect(subscription.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
  });

  test("get, list and listAll show it without the secret", async () => {
    const { client, subscription } = await subscribed();
    const fetched = await client.webhooks.get(subscription.id);
    expect(fetched).toMatchObject({ id: subscription.id, active: true, disabledReason: null });
    expect("secret" in fetched).toBe(false);
    const page = await client.webhooks.list({ page: 1, limit: 10 });
    expect(page.pagination).toEqual({ page: 1, limit: 10, total: 1 });
    expect(page.data[0]?.id).toBe(subscription.id);
    expect((await collect(client.webhooks.listAll())).map((w) => w.id)).toEqual([subscription.id]);
  });

  test("update changes the events and answers the whole subscription", async () => {
    const { client, subscription } = await subscribed();
    const updated = await client.webhooks.update(subscription.id, {
      events: ["project.created", "project.updated", "project.deleted"],
    });
    expect(updated.events).toEqual(["project.created", "project.updated", "project.deleted"]);
    expect(updated.url).toBe(subscription.url);
    expect((await client.webhooks.get(subscription.id)).events).toEqual(updated.events);
  });
});

describe("a real delivery", () => {
  test("the receiver gets a signed project.created that verifyWebhook returns typed", async () => {
    const { subscription, project, first } = await delivered();
    expect(first.headers["content-type"]).toStartWith("application/json");

    const event = await verifyWebhook({
      payload: first.body,
      headers: first.headers,
      secret: subscription.secret,
    });
    expect(event.type).toBe("project.created");
    // narrowing on `type` is how a receiver tells project events from api_key.* ones
    if (event.type !== "project.created") throw new Error(`unexpected ${event.type}`);
    expect(event.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(event.data.project).toEqual({
      id: project.id,
      name: "Hooked project",
      description: "d",
      createdAt: project.createdAt,
      updatedAt: expect.any(String),
    });
    // a Headers object and the raw bytes work too
    const again = await verifyWebhook({
      payload: new TextEncoder().encode(first.body),
      headers: new Headers(first.headers),
      secret: subscription.secret,
    });
    expect(again).toEqual(event);
  });

  test("a tampered body, another secret or missing headers are refused", async () => {
    const { subscription, first } = await delivered();
    const { body, headers } = first;
    const tampered = body.replace("Hooked project", "Hacked project");
    expect(tampered).not.toBe(body);
    const secret = subscription.secret;
    const cases = [
      { payload: tampered, headers, secret, message: "No matching webhook signature" },
      {
        payload: body,
        headers,
        secret: `whsec_${btoa("another secret key")}`,
        message: "No matching webhook signature",
      },
      {
        payload: body,
        headers: { ...headers, "webhook-signature": "v1,AAAA" },
        secret,
        message: "No matching webhook signature",
      },
      {
        payload: body,
        headers: { ...headers, "webhook-id": "msg_other" },
        secret,
        message: "No matching webhook signature",
      },
      {
        payload: body,
        headers: { "webhook-id": headers["webhook-id"] as string },
        secret,
        message: "Missing webhook-id, webhook-timestamp or webhook-signature header",
      },
    ];
    for (const { message, ...options } of cases) {
      const error = await rejection(verifyWebhook(options));
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as Error).message).toBe(message);
    }
  });

  test("a timestamp outside the tolerance is refused, inside it accepted", async () => {
    const { subscription, first } = await delivered();
    const { body, headers } = first;
    const sent = Number(headers["webhook-timestamp"]) * 1000;
    const at = (offsetSeconds: number, toleranceSeconds?: number) =>
      verifyWebhook({
        payload: body,
        headers,
        secret: subscription.secret,
        now: new Date(sent + offsetSeconds * 1000),
        toleranceSeconds,
      });
    const old = (await rejection(at(301))) as WebhookVerificationError;
    expect(old).toBeInstanceOf(WebhookVerificationError);
    expect(old.message).toBe("Webhook timestamp too old");
    const future = (await rejection(at(-301))) as WebhookVerificationError;
    expect(future.message).toBe("Webhook timestamp too far in the future");
    expect((await at(299)).type).toBe("project.created");
    expect((await at(3000, 3600)).type).toBe("project.created");
  });

  test("an update arrives as project.updated, narrowed by its type", async () => {
    const { client, subscription, project, hooks } = await delivered([
      "project.created",
      "project.updated",
    ]);
    const projectId = project.id;
    await client.projects.update(projectId, { name: "Renamed project" });
    await waitFor(() => hooks().length >= 2, "the project.updated delivery");
    const request = hooks()[1] as RecordedRequest;
    const event = await verifyWebhook({
      payload: request.body,
      headers: request.headers,
      secret: subscription.secret,
    });
    if (event.type !== "project.updated") throw new Error(`unexpected ${event.type}`);
    expect(event.data.project).toMatchObject({ id: projectId, name: "Renamed project" });
  });
});

describe("deliveries", () => {
  test("rotateSecret: during the grace a delivery verifies with the new and the previous secret", async () => {
    const { client, subscription, project, hooks } = await delivered([
      "project.created",
      "project.updated",
    ]);
    const rotated = await client.webhooks.rotateSecret(subscription.id, { gracePeriodHours: 1 });
    expect(rotated.id).toBe(subscription.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(subscription.secret);
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    await client.projects.update(project.id, { name: "After rotation" });
    await waitFor(() => hooks().length >= 2, "the delivery after the rotation");
    const after = hooks()[1] as RecordedRequest;
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [rotated.secret, subscription.secret]) {
      const event = await verifyWebhook({ payload: after.body, headers: after.headers, secret });
      expect(event.type).toBe("project.updated");
    }
  });

  test("the log lists the deliveries; retryDelivery sends one again with the same webhook-id", async () => {
    const { client, subscription, project, first, hooks } = await delivered([
      "project.created",
      "project.updated",
    ]);
    const projectId = project.id;
    const firstDelivery = first;
    await client.projects.update(projectId, { name: "Renamed project" });
    await waitFor(async () => {
      const log = await client.webhooks.listDeliveries(subscription.id);
      return log.data.length === 2 && log.data.every((d) => d.status === "delivered");
    }, "both deliveries marked delivered");
    const log = await client.webhooks.listDeliveries(subscription.id, { page: 1, limit: 10 });
    expect(log.pagination).toEqual({ page: 1, limit: 10, total: 2 });
    const created = log.data.find((d) => d.eventType === "project.created");
    expect(created).toMatchObject({
      webhookId: firstDelivery.headers["webhook-id"],
      subscriptionId: subscription.id,
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
    });
    const all = await collect(client.webhooks.listAllDeliveries(subscription.id, { limit: 1 }));
    expect(all.map((d) => d.id)).toEqual(log.data.map((d) => d.id));

    const delivery = created as NonNullable<typeof created>;
    const retried = await client.webhooks.retryDelivery(subscription.id, delivery.id);
    expect(client.lastResponse?.status).toBe(202);
    expect(retried.id).toBe(delivery.id);
    expect(["pending", "sending", "delivered"]).toContain(retried.status);
    await waitFor(() => hooks().length >= 3, "the retried delivery");
    const resent = hooks()[2] as RecordedRequest;
    expect(resent.headers["webhook-id"]).toBe(firstDelivery.headers["webhook-id"] as string);
    const event = await verifyWebhook({
      payload: resent.body,
      headers: resent.headers,
      secret: subscription.secret,
    });
    if (!event.type.startsWith("project.") || !("project" in event.data)) {
      throw new Error(`unexpected ${event.type}`);
    }
    expect(event.data.project.id).toBe(projectId);
  });

  test("an unknown subscription's deliveries are a NotFoundError", async () => {
    const { client } = await subscribed();
    const error = await rejection(client.webhooks.listDeliveries(crypto.randomUUID()));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).error).toBe("Webhook not found");
  });
});

describe("delete", () => {
  test("delete answers success, then the subscription is gone", async () => {
    const { client, subscription } = await subscribed();
    expect(await client.webhooks.delete(subscription.id)).toEqual({
      success: true,
      message: "Webhook deleted",
    });
    expect(await rejection(client.webhooks.get(subscription.id))).toBeInstanceOf(NotFoundError);
  });
});
