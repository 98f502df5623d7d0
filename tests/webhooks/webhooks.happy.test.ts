import { expect, test } from "bun:test";
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

  test("POST /api/webhooks → 201 with id, url, events, active, createdAt and a whsec_ secret", async () => {
    const { key, organizationId } = await webhookMember(make);
    const response = await send(app, "/api/webhooks", {
      key,
      body: { url: PUBLIC_URL, events: ["project.created", "project.deleted"] },
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: PUBLIC_URL,
      events: ["project.created", "project.deleted"],
      active: true,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/=]{40,}$/),
    });
    const [row] = await storedWebhooks(db.database, organizationId);
    // stored only encrypted (docs/security.md): neither the secret nor its key bytes in the row
    expect(row).toMatchObject({ id: body.id, url: PUBLIC_URL, secret: null, active: true });
    expect(JSON.stringify(row)).not.toContain(body.secret.slice("whsec_".length));
  });

  test("GET /api/webhooks lists newest first with page/limit/total and never a secret", async () => {
    const { key } = await webhookMember(make);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createWebhook(app, key)).id);
    const first = await send(app, "/api/webhooks?page=1&limit=2", { key });
    expect(first.status).toBe(200);
    const page1 = await first.json();
    expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 3 });
    expect(page1.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    const page2 = await (await send(app, "/api/webhooks?page=2&limit=2", { key })).json();
    expect(page2.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    const beyond = await (await send(app, "/api/webhooks?page=3&limit=2", { key })).json();
    expect(beyond).toEqual({ data: [], pagination: { page: 3, limit: 2, total: 3 } });
    expect(JSON.stringify([page1, page2])).not.toContain("whsec_");
    const defaults = await (await send(app, "/api/webhooks", { key })).json();
    expect(defaults.pagination).toEqual({ page: 1, limit: 10, total: 3 });
  });

  test("GET /api/webhooks/:id answers the subscription without its secret", async () => {
    const { key } = await webhookMember(make);
    const created = await createWebhook(app, key);
    const response = await send(app, `/api/webhooks/${created.id}`, { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: created.id,
      url: PUBLIC_URL,
      events: ALL_EVENTS,
      active: true,
      disabledReason: null,
      createdAt: created.createdAt,
      updatedAt: created.createdAt,
    });
  });

  test("PATCH changes url, events and active; the answer is the whole subscription", async () => {
    const { key } = await webhookMember(make);
    const created = await createWebhook(app, key);
    const response = await send(app, `/api/webhooks/${created.id}`, {
      method: "PATCH",
      key,
      body: { url: "https://93.184.216.35/other", events: ["project.updated"], active: false },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      id: created.id,
      url: "https://93.184.216.35/other",
      events: ["project.updated"],
      active: false,
    });
    expect(body.secret).toBeUndefined();
    const again = await (await send(app, `/api/webhooks/${created.id}`, { key })).json();
    expect(again).toEqual(body);
  });

  test("DELETE answers { success, message } and the subscription is gone", async () => {
    const { key, organizationId } = await webhookMember(make);
    const created = await createWebhook(app, key);
    const response = await send(app, `/api/webhooks/${created.id}`, { method: "DELETE", key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: "Webhook deleted" });
    expect((await send(app, `/api/webhooks/${created.id}`, { key })).status).toBe(404);
    expect(await storedWebhooks(db.database, organizationId)).toEqual([]);
  });

  test("a repeated event name is kept once", async () => {
    const { key } = await webhookMember(make);
    const created = await createWebhook(app, key, {
      url: PUBLIC_URL,
      events: ["project.created", "project.created"],
    });
    expect(created.events).toEqual(["project.created"]);
  });

  test("Idempotency-Key: the same POST again replays the first answer, creating nothing", async () => {
    const { key, organizationId } = await webhookMember(make);
    const request = {
      key,
      headers: { "idempotency-key": "hook-1" },
      body: { url: PUBLIC_URL, events: ["project.created"] },
    };
    const first = await send(app, "/api/webhooks", request);
    const second = await send(app, "/api/webhooks", request);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await second.json()).toEqual(await first.json());
    expect((await storedWebhooks(db.database, organizationId)).length).toBe(1);
  });

  test("the delivery log starts empty and is paginated", async () => {
    const { key } = await webhookMember(make);
    const created = await createWebhook(app, key);
    const response = await send(app, `/api/webhooks/${created.id}/deliveries?limit=5`, { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: [],
      pagination: { page: 1, limit: 5, total: 0 },
    });
  });

  test("GraphQL offers the same operations with the same answers", async () => {
    const { key } = await webhookMember(make);
    const created = await graphql(
      app,
      key,
      `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id url events active secret } }`,
      { input: { url: PUBLIC_URL, events: ["project.updated"] } },
    );
    expect(created.json.errors).toBeUndefined();
    const hook = created.json.data.createWebhook;
    expect(hook).toMatchObject({ url: PUBLIC_URL, events: ["project.updated"], active: true });
    expect(hook.secret).toStartWith("whsec_");
    const listed = await graphql(
      app,
      key,
      `{ webhooks { data { id url } pagination { total } } webhook(id: "${hook.id}") { id events } }`,
    );
    expect(listed.json.data).toEqual({
      webhooks: { data: [{ id: hook.id, url: PUBLIC_URL }], pagination: { total: 1 } },
      webhook: { id: hook.id, events: ["project.updated"] },
    });
    const deleted = await graphql(
      app,
      key,
      `mutation { deleteWebhook(id: "${hook.id}") { success } }`,
    );
    expect(deleted.json.data).toEqual({ deleteWebhook: { success: true } });
  });

  test("OpenAPI documents every webhook route with its responses", async () => {
    const doc = await (await send(app, "/swagger/json")).json();
    const responses = (path: string, method: string) =>
      Object.keys(doc.paths[path]?.[method]?.responses ?? {}).sort();
    const standard = ["200", "400", "401", "403", "404", "429", "500"];
    expect(responses("/api/webhooks", "get")).toEqual(["200", "400", "401", "403", "429", "500"]);
    // a route with a body can also answer 413 (over 1 MiB) and 415 (not JSON)
    expect(responses("/api/webhooks", "post")).toEqual([
      "201",
      "400",
      "401",
      "403",
      "409",
      "413",
      "415",
      "429",
      "500",
    ]);
    expect(responses("/api/webhooks/{id}", "get")).toEqual(standard);
    expect(responses("/api/webhooks/{id}", "patch")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "413",
      "415",
      "429",
      "500",
    ]);
    expect(responses("/api/webhooks/{id}", "delete")).toEqual(standard);
    expect(responses("/api/webhooks/{id}/deliveries", "get")).toEqual(standard);
    expect(responses("/api/webhooks/{id}/deliveries/{deliveryId}/retry", "post")).toEqual([
      "202",
      "400",
      "401",
      "403",
      "404",
      "409",
      "429",
      "500",
    ]);
    expect(doc.paths["/api/webhooks"].post.summary).toBe("Subscribe a URL to project events");
  });
}

describeEachDriver("webhooks happy path", suite);
