import { afterAll, expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually, startReceiver } from "../helpers/webhook-receiver.ts";
import { createWebhook } from "../helpers/webhooks.ts";

/**
 * The outbox's NOTIFY wakes the dispatcher at once: with polling pushed out to an hour, a
 * delivery can only arrive because the commit notified the listening dispatcher.
 */
const NO_POLLING = { backoffMs: [20], jitter: 0, pollMs: 3_600_000, timeoutMs: 2000 };

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver, {
    env: { ALLOW_PRIVATE_WEBHOOK_URLS: "true" },
    webhooks: NO_POLLING,
  });
  let stop = () => {};
  afterAll(() => stop());

  test("a committed project event reaches the receiver without waiting for a poll", async () => {
    const { key } = await make.member({ scopes: ["projects:write", "webhooks:write"] });
    let secret: string | undefined;
    const receiver = startReceiver(() => secret);
    stop = receiver.stop;
    const hook = await createWebhook(app, key, { url: receiver.url, events: ["project.created"] });
    secret = hook.secret;
    const created = await send(app, "/api/projects", { key, body: { name: "Notified" } });
    expect(created.status).toBe(201);
    const project = await created.json();
    await eventually(() => receiver.received.length === 1, "the notified delivery");
    expect(receiver.received[0]?.body.data.project.id).toBe(project.id);
  });
}

describeEachDriver("webhook outbox notifies the dispatcher", suite);
