import { afterAll, describe, expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";

/**
 * Delivery end to end, in-process: real projects routes → outbox → dispatcher → a real HTTP
 * receiver on loopback that verifies every signature with the standardwebhooks library.
 * Retries are shortened to 30 ms (the production schedule is unit-tested separately).
 */
const FAST = { backoffMs: [30, 30, 30], jitter: 0, pollMs: 25, timeoutMs: 1000 };
const ENV = { ALLOW_PRIVATE_WEBHOOK_URLS: "true" };
const SCOPES = ["projects:read", "projects:write", "webhooks:read", "webhooks:write"];

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver, { env: ENV, webhooks: FAST });
  const receivers: ReturnType<typeof startReceiver>[] = [];
  afterAll(() => {
    for (const r of receivers) r.stop();
  });

  /** an organization with a key, a receiver, and a subscription of that receiver */
  async function subscribed(script?: number[], events = ["project.created"], hold?: Promise<void>) {
    const { key } = await make.member({ scopes: SCOPES });
    let secret: string | undefined;
    const receiver = startReceiver(() => secret, { script, hold });
    receivers.push(receiver);
    const res = await send(app, "/api/webhooks", { key, body: { url: receiver.url, events } });
    expect(res.status, await res.clone().text()).toBe(201);
    const hook = await res.json();
    secret = hook.secret;
    return { key, receiver, hook };
  }

  const createProject = async (key: string, name: string) => {
    const res = await send(app, "/api/projects", { key, body: { name, description: "d" } });
    expect(res.status).toBe(201);
    return res.json();
  };

  const deliveries = async (key: string, hookId: string) => {
    const res = await send(app, `/api/webhooks/${hookId}/deliveries`, { key });
    expect(res.status).toBe(200);
    return (await res.json()).data;
  };

  test("created, updated and deleted arrive signed, as { type, timestamp, data: { project } }", async () => {
    const { key, receiver } = await subscribed(undefined, [
      "project.created",
      "project.updated",
      "project.deleted",
    ]);
    const project = await createProject(key, "Apollo");
    const patched = await send(app, `/api/projects/${project.id}`, {
      method: "PATCH",
      key,
      body: { name: "Apollo 2" },
    });
    expect(patched.status).toBe(200);
    await send(app, `/api/projects/${project.id}`, { method: "DELETE", key });
    await eventually(() => receiver.received.length >= 3, "three events");
    expect(receiver.rejected, "every signature verifies").toEqual([]);
    const byType = Object.fromEntries(receiver.received.map((r) => [r.body.type, r.body]));
    expect(Object.keys(byType).sort()).toEqual([
      "project.created",
      "project.deleted",
      "project.updated",
    ]);
    expect(byType["project.created"]).toEqual({
      type: "project.created",
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      data: {
        project: {
          id: project.id,
          name: "Apollo",
          description: "d",
          createdAt: project.createdAt,
          updatedAt: project.createdAt,
        },
      },
    });
    expect(byType["project.updated"].data.project.name).toBe("Apollo 2");
    expect(byType["project.deleted"].data.project.id).toBe(project.id);
    const ids = receiver.received.map((r) => r.webhookId);
    expect(new Set(ids).size, "each event has its own webhook-id").toBe(3);
  });

  test("only subscribed event types are sent", async () => {
    const { key, receiver, hook } = await subscribed(undefined, ["project.deleted"]);
    const project = await createProject(key, "Quiet");
    await send(app, `/api/projects/${project.id}`, { method: "DELETE", key });
    await eventually(() => receiver.received.length >= 1, "the delete event");
    // every send starts from a delivery row: one row, delivered, means nothing else can come
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.status === "delivered",
      "the delivery recorded",
    );
    expect((await deliveries(key, hook.id)).length).toBe(1);
    expect(receiver.received.map((r) => r.body.type)).toEqual(["project.deleted"]);
  });

  test("500, 500, then 200: three attempts with one webhook-id, logged as delivered", async () => {
    const { key, receiver, hook } = await subscribed([500, 500, 200]);
    await createProject(key, "Flaky");
    await eventually(() => receiver.deliveredIds().size === 1, "the third attempt");
    expect(receiver.received.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(receiver.received.map((r) => r.webhookId)).size).toBe(1);
    await eventually(async () => (await deliveries(key, hook.id))[0].status === "delivered", "log");
    const [log] = await deliveries(key, hook.id);
    expect(log).toMatchObject({
      messageId: receiver.received[0]?.webhookId,
      webhookId: receiver.received[0]?.webhookId, // the deprecated alias says the same
      subscriptionId: hook.id,
      eventType: "project.created",
      status: "delivered",
      attempts: 3,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: expect.any(String),
    });
  });

  test("retries stop after the schedule: failed, with the last status and error", async () => {
    const { key, receiver, hook } = await subscribed([503, 503, 503, 503, 503]);
    await createProject(key, "Down");
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.status === "failed",
      "failed",
    );
    const [log] = await deliveries(key, hook.id);
    expect(log).toMatchObject({ attempts: 4, lastStatusCode: 503, nextAttemptAt: null });
    expect(log.lastError).toContain("HTTP 503");
    expect(receiver.received.length, "1 attempt + 3 retries").toBe(4);
  });

  test("410 Gone disables the subscription and stops its deliveries", async () => {
    const { key, receiver, hook } = await subscribed([410]);
    await createProject(key, "Gone");
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.status === "failed",
      "failed",
    );
    // the dispatcher writes the failed attempt, then disables the subscription: two statements
    let read: Record<string, unknown> = {};
    await eventually(async () => {
      read = await (await send(app, `/api/webhooks/${hook.id}`, { key })).json();
      return read.active === false;
    }, "the subscription disabled");
    expect(read).toMatchObject({ active: false, disabledReason: "Receiver answered 410 Gone" });
    await createProject(key, "After");
    // every send starts from a delivery row, written with the project: none means none is sent
    expect((await deliveries(key, hook.id)).length, "nothing is queued").toBe(1);
    expect(receiver.received.length, "nothing was sent to a disabled webhook").toBe(1);
  });

  test("a redirect is not followed and counts as a failure", async () => {
    const { key, receiver: target } = await subscribed();
    const bouncer = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () => new Response(null, { status: 302, headers: { location: target.url } }),
    });
    const res = await send(app, "/api/webhooks", {
      key,
      body: { url: `http://127.0.0.1:${bouncer.port}/`, events: ["project.updated"] },
    });
    const hook = await res.json();
    expect(hook.secret).toStartWith("whsec_");
    const project = await createProject(key, "Bounce");
    await send(app, `/api/projects/${project.id}`, { method: "PATCH", key, body: { name: "B" } });
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.lastError != null,
      "an attempt",
    );
    const [log] = await deliveries(key, hook.id);
    bouncer.stop(true);
    expect(log.lastStatusCode).toBe(302);
    expect(log.lastError).toContain("redirect not followed");
    expect(
      target.received.filter((r) => r.body.type === "project.updated"),
      "the redirect target never sees the event",
    ).toEqual([]);
  });

  test("a failing answer with an endless body is cut short and logged with its first bytes", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    const endless = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          new ReadableStream({
            pull: (controller) => controller.enqueue(new TextEncoder().encode("x".repeat(4096))),
          }),
          { status: 500 },
        ),
    });
    try {
      const hook = await (
        await send(app, "/api/webhooks", {
          key,
          body: { url: `http://127.0.0.1:${endless.port}/`, events: ["project.created"] },
        })
      ).json();
      await createProject(key, "Endless");
      await eventually(
        async () => (await deliveries(key, hook.id))[0]?.lastError != null,
        "the attempt is recorded",
        3000,
      );
      const [log] = await deliveries(key, hook.id);
      expect(log.lastStatusCode).toBe(500);
      expect(log.lastError).toBe(`HTTP 500: ${"x".repeat(200)}`);
    } finally {
      endless.stop(true);
    }
  });

  test("a receiver slower than the timeout is an attempt that timed out", async () => {
    // the receiver answers only when released: the timeout is the only way the attempt can end
    const gate = Promise.withResolvers<void>();
    const { key, hook } = await subscribed([200], ["project.created"], gate.promise);
    await createProject(key, "Slow");
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.lastError != null,
      "timeout",
      5000,
    );
    const [log] = await deliveries(key, hook.id);
    gate.resolve();
    expect(log.lastError).toBe("Timed out after 1000 ms");
    expect(log.lastStatusCode).toBeNull();
  });

  test("one slow receiver does not hold up another subscription", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    // the slow receiver holds every request until the fast one has had all of its deliveries
    const gate = Promise.withResolvers<void>();
    const slow = startReceiver(() => slowSecret, { hold: gate.promise });
    const fast = startReceiver(() => fastSecret);
    receivers.push(slow, fast);
    const subscribe = async (url: string) =>
      (
        await send(app, "/api/webhooks", { key, body: { url, events: ["project.created"] } })
      ).json();
    const slowSecret: string = (await subscribe(slow.url)).secret;
    const fastSecret: string = (await subscribe(fast.url)).secret;
    expect(organizationId).toBeString();
    await Promise.all(Array.from({ length: 12 }, (_, i) => createProject(key, `P${i}`)));
    await eventually(() => fast.deliveredIds().size === 12, "all fast deliveries", 5000);
    await eventually(() => slow.arrived.length > 0, "a request held by the slow receiver");
    expect(slow.deliveredIds().size, "the slow receiver has answered nothing yet").toBe(0);
    gate.resolve();
  });

  test("manual retry sends a failed delivery again with the same webhook-id", async () => {
    const { key, receiver, hook } = await subscribed([500, 500, 500, 500]);
    await createProject(key, "Again");
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.status === "failed",
      "failed",
    );
    const [failed] = await deliveries(key, hook.id);
    const res = await send(app, `/api/webhooks/${hook.id}/deliveries/${failed.id}/retry`, {
      method: "POST",
      key,
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ id: failed.id, status: "pending", attempts: 4 });
    await eventually(() => receiver.deliveredIds().has(failed.webhookId), "the manual retry");
    await eventually(
      async () => (await deliveries(key, hook.id))[0]?.status === "delivered",
      "log",
    );
    expect((await deliveries(key, hook.id))[0].attempts).toBe(5);
  });
}

describeEachDriver("webhook delivery", suite);

describe("inactive subscriptions (clock-driven)", () => {
  let offset = 0;
  const { app, make } = useTestApp("pglite", {
    env: ENV,
    // the retry after the first failure is due a minute later, so only the clock jump below
    // brings it on
    webhooks: { ...FAST, backoffMs: [60_000, 60_000] },
    now: () => new Date(Date.now() + offset),
  });

  test("failures across 5 days of (injected) time disable it", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    let secret: string | undefined;
    const receiver = startReceiver(() => secret, { script: [500, 500, 500] });
    try {
      const hook = await (
        await send(app, "/api/webhooks", {
          key,
          body: { url: receiver.url, events: ["project.created"] },
        })
      ).json();
      secret = hook.secret;
      await send(app, "/api/projects", { key, body: { name: "X" } });
      await eventually(async () => {
        const log = await (await send(app, `/api/webhooks/${hook.id}/deliveries`, { key })).json();
        return log.data[0]?.lastStatusCode === 500;
      }, "first failure recorded");
      // relative to where the clock stands: the other test may have moved it already
      offset += 5 * 86_400_000 + 60_000;
      await eventually(async () => {
        const read = await (await send(app, `/api/webhooks/${hook.id}`, { key })).json();
        return read.active === false;
      }, "disabled");
      const read = await (await send(app, `/api/webhooks/${hook.id}`, { key })).json();
      expect(read.disabledReason).toBe("Failing for 5 days");
      expect(
        receiver.received.map((r) => r.status),
        "disabled at the second failure",
      ).toEqual([500, 500]);
    } finally {
      receiver.stop();
    }
  }, 20_000);

  test("a pending delivery of a webhook PATCHed inactive ends as failed, unsent; retry waits for re-enabling", async () => {
    const { key } = await make.member({ scopes: SCOPES });
    let secret: string | undefined;
    const receiver = startReceiver(() => secret, { script: [500] });
    try {
      const hook = await (
        await send(app, "/api/webhooks", {
          key,
          body: { url: receiver.url, events: ["project.created"] },
        })
      ).json();
      secret = hook.secret;
      await send(app, "/api/projects", { key, body: { name: "Paused" } });
      const log = async () =>
        (await (await send(app, `/api/webhooks/${hook.id}/deliveries`, { key })).json()).data[0];
      await eventually(async () => (await log())?.lastStatusCode === 500, "first failure recorded");
      const paused = await send(app, `/api/webhooks/${hook.id}`, {
        method: "PATCH",
        key,
        body: { active: false },
      });
      expect(paused.status).toBe(200);
      offset += 120_000; // the retry comes due
      await eventually(async () => (await log())?.status === "failed", "failed while inactive");
      const failed = await log();
      expect(failed).toMatchObject({ lastError: "Subscription disabled", attempts: 1 });
      expect(receiver.received.length, "nothing sent while inactive").toBe(1);
      const retryPath = `/api/webhooks/${hook.id}/deliveries/${failed.id}/retry`;
      const refused = await send(app, retryPath, { method: "POST", key });
      expect(refused.status).toBe(409);
      await send(app, `/api/webhooks/${hook.id}`, { method: "PATCH", key, body: { active: true } });
      expect((await send(app, retryPath, { method: "POST", key })).status).toBe(202);
      await eventually(() => receiver.deliveredIds().has(failed.id), "delivered after re-enabling");
    } finally {
      receiver.stop();
    }
  }, 20_000);
});
