import { afterAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { webhookSubscriptions } from "../../src/db/schema/index.ts";
import { WebhookSecretBox } from "../../src/outbox/secret-box.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { eventually } from "../helpers/webhook-receiver.ts";

/**
 * Webhook signing secrets at rest and their rotation (docs/security.md, docs/webhooks.md): the
 * row holds only ciphertext under WEBHOOK_SECRET_KEY; a rotation sends both signatures in
 * `webhook-signature` during its grace period, then only the new one. A real receiver on
 * loopback records each request; every signature is checked with the standardwebhooks library.
 */
const KEY = "test webhook secret key, 32 characters or more";
const FAST = { backoffMs: [30, 30, 30], jitter: 0, pollMs: 25, timeoutMs: 1000 };
const ENV = { ALLOW_PRIVATE_WEBHOOK_URLS: "true", WEBHOOK_SECRET_KEY: KEY };
const SCOPES = ["projects:read", "projects:write", "webhooks:read", "webhooks:write"];

interface Received {
  body: string;
  headers: Record<string, string>;
}

function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { env: ENV, webhooks: FAST, now: clock.now });
  const received: Received[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      received.push({ body: await request.text(), headers: Object.fromEntries(request.headers) });
      return new Response("ok");
    },
  });
  afterAll(() => receiver.stop(true));
  const url = `http://127.0.0.1:${receiver.port}/hook`;

  const verifies = (secret: string, message: Received) => {
    try {
      new Webhook(secret).verify(message.body, message.headers);
      return true;
    } catch {
      return false;
    }
  };

  async function subscribed() {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const res = await send(app, "/api/webhooks", {
      key,
      body: { url, events: ["project.created"] },
    });
    expect(res.status).toBe(201);
    const hook = (await res.json()) as { id: string; secret: string };
    return { key, organizationId, hook };
  }

  /** creates a project and answers the request the receiver got for it */
  async function delivered(key: string, name: string) {
    const before = received.length;
    expect((await send(app, "/api/projects", { key, body: { name } })).status).toBe(201);
    await eventually(() => received.length > before, `delivery of ${name}`);
    return received[received.length - 1] as Received;
  }

  const row = async (id: string) =>
    (
      await db.database.db
        .select()
        .from(webhookSubscriptions)
        .where(eq(webhookSubscriptions.id, id))
    )[0];

  test("the secret is stored only encrypted under WEBHOOK_SECRET_KEY, bound to its row", async () => {
    const { hook } = await subscribed();
    const stored = await row(hook.id);
    expect(stored?.secret, "no clear column value").toBeNull();
    expect(JSON.stringify(stored)).not.toContain(hook.secret.slice("whsec_".length));
    expect(await new WebhookSecretBox(KEY).open(hook.id, stored?.secretSealed)).toBe(hook.secret);
    expect(
      await new WebhookSecretBox("another key of 32 characters or more!").open(
        hook.id,
        stored?.secretSealed,
      ),
    ).toBeUndefined();
    expect(
      await new WebhookSecretBox(KEY).open(crypto.randomUUID(), stored?.secretSealed),
      "copied to another row",
    ).toBeUndefined();
  });

  test("rotation: both signatures during the grace period (new first), then only the new one", async () => {
    const { key, hook } = await subscribed();
    const old = hook.secret;
    const first = await delivered(key, "before rotation");
    expect(verifies(old, first)).toBe(true);

    const rotated = await send(app, `/api/webhooks/${hook.id}/rotate-secret`, {
      key,
      body: { gracePeriodHours: 2 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    const answer = (await rotated.json()) as {
      id: string;
      secret: string;
      previousSecretExpiresAt: string;
    };
    expect(answer).toEqual({
      id: hook.id,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
      previousSecretExpiresAt: new Date(clock.now().getTime() + 2 * 3_600_000).toISOString(),
    });
    const fresh = answer.secret;
    expect(fresh).not.toBe(old);

    const during = await delivered(key, "during grace");
    const signatures = (during.headers["webhook-signature"] as string).split(" ");
    expect(signatures).toHaveLength(2);
    expect(verifies(fresh, during), "a receiver with the new secret").toBe(true);
    expect(verifies(old, during), "a receiver still on the old secret").toBe(true);
    expect(
      verifies(fresh, {
        ...during,
        headers: { ...during.headers, "webhook-signature": signatures[0] as string },
      }),
      "the new one first",
    ).toBe(true);

    clock.advance(2 * 3_600_000 + 1_000);
    const after = await delivered(key, "after grace");
    expect((after.headers["webhook-signature"] as string).split(" ")).toHaveLength(1);
    expect(verifies(fresh, after)).toBe(true);
    expect(verifies(old, after), "the old secret no longer verifies").toBe(false);
    const stored = await row(hook.id);
    expect(JSON.stringify(stored)).not.toContain(fresh.slice("whsec_".length));
  });

  test("GraphQL rotateWebhookSecret with no grace: the previous secret stops at once", async () => {
    const { key, hook } = await subscribed();
    const { json } = await graphql(
      app,
      key,
      "mutation($id: ID!) { rotateWebhookSecret(id: $id, gracePeriodHours: 0) { id secret previousSecretExpiresAt } }",
      { id: hook.id },
    );
    expect(json.errors).toBeUndefined();
    const { secret, previousSecretExpiresAt } = json.data.rotateWebhookSecret;
    expect(previousSecretExpiresAt).toBeNull();
    const next = await delivered(key, "no grace");
    expect(verifies(secret, next)).toBe(true);
    expect(verifies(hook.secret, next)).toBe(false);
  });

  test("a bad grace period or another's webhook is refused and changes nothing", async () => {
    const { key, hook } = await subscribed();
    const before = await row(hook.id);
    const tooLong = await send(app, `/api/webhooks/${hook.id}/rotate-secret`, {
      key,
      body: { gracePeriodHours: 169 },
    });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: string }).error).toBe("Validation failed");
    const { json } = await graphql(
      app,
      key,
      "mutation($id: ID!) { rotateWebhookSecret(id: $id, gracePeriodHours: -1) { id } }",
      { id: hook.id },
    );
    expect(json.errors?.[0]?.extensions?.details).toEqual([
      { path: ["gracePeriodHours"], message: "Must be a whole number of hours from 0 to 168" },
    ]);
    const unknown = await send(app, `/api/webhooks/${crypto.randomUUID()}/rotate-secret`, {
      key,
      method: "POST",
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Webhook not found" });
    expect(await row(hook.id), "unchanged").toEqual(before);
  });

  test("a row written before encryption (clear secret) is sealed at the next start and still signs with that secret", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const legacy = `whsec_${btoa("a legacy secret of thirty-two b!")}`;
    const [inserted] = await db.database.db
      .insert(webhookSubscriptions)
      .values({ organizationId, url, events: ["project.created"], secret: legacy })
      .returning();
    const id = (inserted as { id: string }).id;
    const restarted = await buildTestApp(await db.openAnother(), { env: ENV });
    await restarted.stop();
    const stored = await row(id);
    expect(stored?.secret, "the clear value is gone").toBeNull();
    expect(await new WebhookSecretBox(KEY).open(id, stored?.secretSealed)).toBe(legacy);
    const message = await delivered(key, "after sealing");
    expect(verifies(legacy, message), "receivers keep the secret they have").toBe(true);
  });
}

describeEachDriver("webhook secrets (security)", suite);
