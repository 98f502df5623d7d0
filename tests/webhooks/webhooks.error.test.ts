import { expect, test } from "bun:test";
import { webhookSubscriptions } from "../../src/db/schema/index.ts";
import { WEBHOOK_EVENT_TYPES } from "../../src/features.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import {
  ALL_EVENTS,
  createWebhook,
  PUBLIC_URL,
  storedWebhooks,
  webhookMember,
} from "../helpers/webhooks.ts";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const post = (key: string, body: unknown, headers?: Record<string, string>) =>
    send(app, "/api/webhooks", { key, body, headers });

  async function expect400(response: Response, details: { path: string[]; message: unknown }[]) {
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Validation failed", details });
  }

  test("an unknown event → 400 naming it, nothing stored", async () => {
    const { key, organizationId } = await webhookMember(make);
    await expect400(
      await post(key, { url: PUBLIC_URL, events: ["project.created", "user.created"] }),
      [
        {
          path: ["events", "1"],
          message: `Unknown event "user.created"; one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
        },
      ],
    );
    expect(await storedWebhooks(db.database, organizationId)).toEqual([]);
  });

  test("missing or empty fields → 400 with a detail per field", async () => {
    const { key, organizationId } = await webhookMember(make);
    const missing = await post(key, {});
    expect(missing.status).toBe(400);
    const paths = (await missing.json()).details.map((d: { path: string[] }) => d.path.join("."));
    expect(paths).toContain("url");
    expect(paths).toContain("events");
    await expect400(await post(key, { url: PUBLIC_URL, events: [] }), [
      { path: ["events"], message: "Give at least one event" },
    ]);
    await expect400(await post(key, { url: "not a url", events: ALL_EVENTS }), [
      { path: ["url"], message: "Must be an absolute URL" },
    ]);
    await expect400(
      await post(key, { url: `https://x.example/${"a".repeat(2050)}`, events: ALL_EVENTS }),
      [{ path: ["url"], message: "Must be at most 2048 characters" }],
    );
    const wrongType = await post(key, { url: PUBLIC_URL, events: "project.created" });
    expect(wrongType.status).toBe(400);
    expect((await wrongType.json()).error).toBe("Validation failed");
    expect(await storedWebhooks(db.database, organizationId)).toEqual([]);
  });

  test("plain http is refused unless ALLOW_PRIVATE_WEBHOOK_URLS", async () => {
    const { key } = await webhookMember(make);
    await expect400(await post(key, { url: "http://93.184.216.34/hook", events: ALL_EVENTS }), [
      { path: ["url"], message: "Must be an https URL" },
    ]);
  });

  test("list bounds: page ≥ 1, limit 1..100 → otherwise 400", async () => {
    const { key } = await webhookMember(make);
    for (const query of ["page=0", "limit=0", "limit=101", "page=abc", "limit=1.5"]) {
      const response = await send(app, `/api/webhooks?${query}`, { key });
      expect(response.status, query).toBe(400);
      const body = await response.json();
      expect(body.error, query).toBe("Validation failed");
      // the detail names the parameter, not Elysia's placeholder "property"
      expect(body.details[0].path, query).toEqual([query.split("=")[0]]);
    }
    const created = await createWebhook(app, key);
    const deliveries = await send(app, `/api/webhooks/${created.id}/deliveries?limit=500`, { key });
    expect(deliveries.status).toBe(400);
  });

  test("PATCH with nothing to change, or a bad event → 400 and the subscription is unchanged", async () => {
    const { key } = await webhookMember(make);
    const created = await createWebhook(app, key);
    const path = `/api/webhooks/${created.id}`;
    await expect400(await send(app, path, { method: "PATCH", key, body: {} }), [
      { path: ["body"], message: "Give url, events, active or several" },
    ]);
    await expect400(
      await send(app, path, {
        method: "PATCH",
        key,
        body: { url: "https://10.0.0.5/", events: ["nope"] },
      }),
      [
        { path: ["url"], message: expect.stringContaining("private") },
        { path: ["events", "0"], message: expect.stringContaining('Unknown event "nope"') },
      ],
    );
    const after = await (await send(app, path, { key })).json();
    expect(after).toMatchObject({ url: PUBLIC_URL, events: ALL_EVENTS });
  });

  test("at most 20 subscriptions per organization: the 21st → 409, nothing added", async () => {
    const { key, organizationId } = await webhookMember(make);
    await db.database.db.insert(webhookSubscriptions).values(
      Array.from({ length: 19 }, () => ({
        organizationId,
        url: PUBLIC_URL,
        events: ALL_EVENTS,
        secret: "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0",
      })),
    );
    expect((await post(key, { url: PUBLIC_URL, events: ALL_EVENTS })).status).toBe(201);
    const refused = await post(key, { url: PUBLIC_URL, events: ALL_EVENTS });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "An organization can have at most 20 webhooks; delete one first",
    });
    expect((await storedWebhooks(db.database, organizationId)).length).toBe(20);
    // concurrent attempts at the limit cannot slip past it either
    await Promise.all([1, 2, 3].map(() => post(key, { url: PUBLIC_URL, events: ALL_EVENTS })));
    expect((await storedWebhooks(db.database, organizationId)).length).toBe(20);
  });

  test("unknown or malformed ids → 404 Webhook not found / Delivery not found", async () => {
    const { key } = await webhookMember(make);
    const created = await createWebhook(app, key);
    for (const id of ["not-a-uuid", crypto.randomUUID()]) {
      for (const [method, path] of [
        ["GET", `/api/webhooks/${id}`],
        ["PATCH", `/api/webhooks/${id}`],
        ["DELETE", `/api/webhooks/${id}`],
        ["GET", `/api/webhooks/${id}/deliveries`],
        ["POST", `/api/webhooks/${id}/deliveries/${crypto.randomUUID()}/retry`],
      ] as const) {
        const body = method === "PATCH" ? { active: false } : undefined;
        const response = await send(app, path, { method, key, body });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(await response.json()).toEqual({ error: "Webhook not found" });
      }
    }
    const retry = await send(app, `/api/webhooks/${created.id}/deliveries/nope/retry`, {
      method: "POST",
      key,
    });
    expect(retry.status).toBe(404);
    expect(await retry.json()).toEqual({ error: "Delivery not found" });
  });

  test("Idempotency-Key reused with another body → 409, nothing created", async () => {
    const { key, organizationId } = await webhookMember(make);
    const headers = { "idempotency-key": "same-key" };
    expect((await post(key, { url: PUBLIC_URL, events: ALL_EVENTS }, headers)).status).toBe(201);
    const other = await post(key, { url: PUBLIC_URL, events: ["project.created"] }, headers);
    expect(other.status).toBe(409);
    expect((await storedWebhooks(db.database, organizationId)).length).toBe(1);
  });

  test("GraphQL: the same validation, as a 400-coded error with details", async () => {
    const { key } = await webhookMember(make);
    const { json } = await graphql(
      app,
      key,
      `mutation { createWebhook(input: { url: "${PUBLIC_URL}", events: ["bogus"] }) { id } }`,
    );
    expect(json.errors?.[0].message).toBe("Validation failed");
    expect(json.errors?.[0].extensions.details).toEqual([
      { path: ["input", "events", "0"], message: expect.stringContaining('Unknown event "bogus"') },
    ]);
  });
}

describeEachDriver("webhooks errors", suite);
