import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { OrgitApp } from "../../src/app.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { webhookSubscriptions } from "../../src/db/schema/index.ts";
import { WebhookSecretBox } from "../../src/outbox/secret-box.ts";
import { buildTestApp, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually } from "../helpers/webhook-receiver.ts";

/**
 * docs/operations.md, "Rotating WEBHOOK_SECRET_KEY", and docs/security.md: with the new key in
 * WEBHOOK_SECRET_KEY and the old one in WEBHOOK_SECRET_KEY_PREVIOUS, the next start seals every
 * stored signing secret again under the new key; afterwards the new key alone opens every row,
 * and deliveries still verify with the secrets receivers hold.
 */
setDefaultTimeout(180_000);

const OLD = "the old webhook secret key, 32 characters or more";
const NEW = "the new webhook secret key, 32 characters or more";
const OTHER = "a key nobody configured, 32 characters or more!!";
const FAST = { backoffMs: [30, 30, 30], jitter: 0, pollMs: 25, timeoutMs: 1000 };
const BASE = { ALLOW_PRIVATE_WEBHOOK_URLS: "true" };
const SCOPES = ["projects:read", "projects:write", "webhooks:read", "webhooks:write"];

describeEachDriver("WEBHOOK_SECRET_KEY rotation", (driver) => {
  const { app, db, make } = useTestApp(driver, { env: { ...BASE, WEBHOOK_SECRET_KEY: OLD } });
  const received: { path: string; body: string; headers: Record<string, string> }[] = [];
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({
        path,
        body: await request.text(),
        headers: Object.fromEntries(request.headers),
      });
      return new Response("ok");
    },
  });
  afterAll(() => receiver.stop(true));
  const rows = () => db.database.db.select().from(webhookSubscriptions);
  const verifies = (secret: string, message: (typeof received)[number]) => {
    try {
      new Webhook(secret).verify(message.body, message.headers);
      return true;
    } catch {
      return false;
    }
  };

  test("the next start seals every secret again under the new key (current and grace ones, in batches); the old key then opens none, the new key alone opens all, and deliveries verify", async () => {
    const { key, organizationId } = await make.member({ scopes: SCOPES });
    const hookUrl = (i: number) => `http://127.0.0.1:${receiver.port}/hook/${i}`;
    const secrets = new Map<string, string>();
    for (let i = 0; i < 2; i++) {
      const body = { url: hookUrl(i), events: ["project.created"] };
      const res = await send(app, "/api/webhooks", { key, body });
      expect(res.status).toBe(201);
      const hook = (await res.json()) as { id: string; secret: string };
      secrets.set(hook.id, hook.secret);
    }
    // more than one batch of 100 (the API caps an organization at 20: written directly)
    const oldBox = new WebhookSecretBox(OLD);
    for (let i = 2; i < 130; i++) {
      const id = crypto.randomUUID();
      const secret = `whsec_${btoa(`secret number ${String(i).padStart(3, "0")} of 32 bytes!`)}`;
      await db.database.db.insert(webhookSubscriptions).values({
        id,
        organizationId,
        url: hookUrl(i),
        events: ["project.created"],
        secretSealed: await oldBox.seal(id, secret),
      });
      secrets.set(id, secret);
    }
    const [rotatedId] = secrets.keys();
    const rotated = await send(app, `/api/webhooks/${rotatedId}/rotate-secret`, {
      key,
      body: { gracePeriodHours: 2 },
    });
    const previous = secrets.get(rotatedId as string) as string;
    secrets.set(rotatedId as string, ((await rotated.json()) as { secret: string }).secret);
    // a value sealed before values named their key, and one under a key nobody has
    const [, unnamedId, , lostId] = secrets.keys();
    await db.database.db.execute(
      sql`update webhook_subscriptions set secret_sealed = secret_sealed - 'k' where id = ${unnamedId}`,
    );
    const lost = await new WebhookSecretBox(OTHER).seal(lostId as string, "whsec_lost");
    await db.database.db
      .update(webhookSubscriptions)
      .set({ secretSealed: lost })
      .where(eq(webhookSubscriptions.id, lostId as string));

    const logs: Record<string, unknown>[] = [];
    const env = { ...BASE, WEBHOOK_SECRET_KEY: NEW, WEBHOOK_SECRET_KEY_PREVIOUS: OLD };
    const restarted = await buildTestApp(await db.openAnother(), { env, logs, webhooks: FAST });
    try {
      expect(logs.find((l) => String(l.msg).includes("sealed again"))?.resealed).toBe(129);
      expect(logs.find((l) => String(l.msg).includes("no configured key"))?.unreadable).toBe(1);
      const newOnly = new WebhookSecretBox(NEW);
      const oldOnly = new WebhookSecretBox(OLD);
      const newId = await newOnly.keyId();
      for (const row of await rows()) {
        if (row.id === lostId) {
          expect(row.secretSealed, "a row no key opens is left as it was").toEqual(lost);
          continue;
        }
        expect(await newOnly.open(row.id, row.secretSealed), row.id).toBe(secrets.get(row.id));
        expect(
          await oldOnly.open(row.id, row.secretSealed),
          "the old key opens nothing",
        ).toBeUndefined();
        expect((row.secretSealed as { k: string }).k).toBe(newId);
        if (row.id === rotatedId) {
          expect(await newOnly.open(row.id, row.previousSecretSealed), "the grace secret").toBe(
            previous,
          );
        }
      }
      await verifyDeliveries(
        restarted,
        key,
        secrets,
        previous,
        rotatedId as string,
        lostId as string,
      );
    } finally {
      await restarted.stop();
    }

    // the old key removed: nothing left to seal, and deliveries still verify
    const logsAfter: Record<string, unknown>[] = [];
    const env2 = { ...BASE, WEBHOOK_SECRET_KEY: NEW };
    const after = await buildTestApp(await db.openAnother(), {
      env: env2,
      logs: logsAfter,
      webhooks: FAST,
    });
    try {
      expect(logsAfter.some((l) => String(l.msg).includes("sealed again"))).toBe(false);
      await verifyDeliveries(after, key, secrets, previous, rotatedId as string, lostId as string);
    } finally {
      await after.stop();
    }
  });

  async function verifyDeliveries(
    target: OrgitApp,
    key: string,
    secrets: Map<string, string>,
    previous: string,
    rotatedId: string,
    lostId: string,
  ) {
    received.length = 0;
    expect((await send(target, "/api/projects", { key, body: { name: "after" } })).status).toBe(
      201,
    );
    await eventually(
      () => received.length >= 129,
      "a delivery to every readable webhook",
      60_000,
    ).catch((error) => {
      throw new Error(`${error.message}: ${received.length} received`);
    });
    const ids = [...secrets.keys()];
    for (const message of received) {
      const id = ids[Number(message.path.split("/").pop())] as string;
      expect(id, "the unreadable row sends nothing").not.toBe(lostId);
      expect(verifies(secrets.get(id) as string, message), `signed for ${id}`).toBe(true);
      if (id === rotatedId)
        expect(verifies(previous, message), "and with the grace secret").toBe(true);
    }
  }

  test("WEBHOOK_SECRET_KEY_PREVIOUS without WEBHOOK_SECRET_KEY stops start-up with a clear line", () => {
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY_PREVIOUS: OLD })).toThrow(ConfigError);
    try {
      loadConfig({ WEBHOOK_SECRET_KEY_PREVIOUS: OLD, WEBHOOK_SECRET_KEY: "short" });
    } catch (error) {
      expect((error as ConfigError).problems).toContain(
        "WEBHOOK_SECRET_KEY must be at least 32 characters",
      );
    }
    expect(
      loadConfig({ WEBHOOK_SECRET_KEY: NEW, WEBHOOK_SECRET_KEY_PREVIOUS: OLD })
        .webhookSecretKeyPrevious,
    ).toBe(OLD);
  });
});
