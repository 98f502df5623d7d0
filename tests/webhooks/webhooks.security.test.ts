import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { eventually } from "../helpers/webhook-receiver.ts";
import {
  ALL_EVENTS,
  createWebhook,
  PUBLIC_URL,
  storedWebhooks,
  webhookMember,
} from "../helpers/webhooks.ts";

type Call = { method: string; path: (id: string) => string; body?: unknown; write: boolean };

const CALLS: Call[] = [
  { method: "GET", path: () => "/api/webhooks", write: false },
  { method: "GET", path: (id) => `/api/webhooks/${id}`, write: false },
  { method: "GET", path: (id) => `/api/webhooks/${id}/deliveries`, write: false },
  {
    method: "POST",
    path: () => "/api/webhooks",
    body: { url: PUBLIC_URL, events: ALL_EVENTS },
    write: true,
  },
  {
    method: "PATCH",
    path: (id) => `/api/webhooks/${id}`,
    body: { url: "https://93.184.216.99/x" },
    write: true,
  },
  { method: "DELETE", path: (id) => `/api/webhooks/${id}`, write: true },
  {
    method: "POST",
    path: (id) => `/api/webhooks/${id}/deliveries/${crypto.randomUUID()}/retry`,
    write: true,
  },
];

/** Names that resolve to a private address in this test's fake DNS. */
const FAKE_DNS: Record<string, string[]> = {
  "internal.example": ["127.0.0.1"],
  "metadata.example": ["169.254.169.254"],
  "public.example": ["93.184.216.34"],
};

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver, {
    webhooks: { resolve: async (host) => FAKE_DNS[host] ?? [] },
  });

  async function victim() {
    const owner = await webhookMember(make);
    const hook = await createWebhook(app, owner.key);
    return { ...owner, hook };
  }

  async function expectIntact(v: Awaited<ReturnType<typeof victim>>) {
    const rows = await storedWebhooks(db.database, v.organizationId);
    expect(rows.map((r) => [r.id, r.url, r.active])).toEqual([[v.hook.id, PUBLIC_URL, true]]);
  }

  const call = (c: Call, key: string | undefined, id: string) =>
    send(app, c.path(id), { method: c.method, key, body: c.body });

  test("every route without a key → 401 Missing API key, nothing changes", async () => {
    const v = await victim();
    for (const c of CALLS) {
      const response = await call(c, undefined, v.hook.id);
      expect(response.status, `${c.method} ${c.path(":id")}`).toBe(401);
      expect(await response.json()).toEqual({ error: "Missing API key" });
    }
    await expectIntact(v);
  });

  test("another organization's webhook is 404 like a missing one, and stays intact", async () => {
    const v = await victim();
    const other = await webhookMember(make);
    for (const c of CALLS.filter((c) => c.path("x").includes("x"))) {
      const response = await call(c, other.key, v.hook.id);
      expect(response.status, `${c.method} ${c.path(":id")}`).toBe(404);
      expect(await response.json()).toEqual({ error: "Webhook not found" });
    }
    const list = await (await send(app, "/api/webhooks", { key: other.key })).json();
    expect(list.data).toEqual([]);
    await expectIntact(v);
    const gql = await graphql(app, other.key, `{ webhook(id: "${v.hook.id}") { id url } }`);
    expect(gql.json.errors?.[0].message).toBe("Webhook not found");
  });

  test("scopes: reading needs webhooks:read, changing needs webhooks:write", async () => {
    const v = await victim();
    const readOnly = await make.member({
      organizationId: v.organizationId,
      scopes: ["webhooks:read"],
    });
    const writeOnly = await make.member({
      organizationId: v.organizationId,
      scopes: ["webhooks:write"],
    });
    for (const c of CALLS) {
      const key = c.write ? readOnly.key : writeOnly.key;
      const response = await call(c, key, v.hook.id);
      expect(response.status, `${c.method} ${c.path(":id")}`).toBe(403);
      expect(await response.json()).toEqual({
        error: `Missing scope: ${c.write ? "webhooks:write" : "webhooks:read"}`,
      });
    }
    await expectIntact(v);
  });

  test("permission: a technician (no webhooks.manage) may neither read nor change webhooks", async () => {
    const v = await victim();
    const tech = await webhookMember(make, {
      organizationId: v.organizationId,
      role: "technician",
    });
    for (const c of CALLS) {
      const response = await call(c, tech.key, v.hook.id);
      expect(response.status, `${c.method} ${c.path(":id")}`).toBe(403);
      expect(await response.json()).toEqual({ error: "Missing permission: webhooks.manage" });
    }
    await expectIntact(v);
  });

  test("not limited to the Pro plan: a FREE organization's USER seat with webhooks.manage may", async () => {
    const org = await make.organization({ plan: "FREE" });
    await make.role(org.id, "integrator", "USER", ["webhooks.manage"]);
    const { key } = await webhookMember(make, { organizationId: org.id, role: "integrator" });
    const response = await send(app, "/api/webhooks", {
      key,
      body: { url: PUBLIC_URL, events: ALL_EVENTS },
    });
    expect(response.status).toBe(201);
  });

  test("the secret is shown once: never by GET, list, PATCH or GraphQL", async () => {
    const v = await victim();
    const texts = [
      await (await send(app, `/api/webhooks/${v.hook.id}`, { key: v.key })).text(),
      await (await send(app, "/api/webhooks", { key: v.key })).text(),
      await (
        await send(app, `/api/webhooks/${v.hook.id}`, {
          method: "PATCH",
          key: v.key,
          body: { active: true },
        })
      ).text(),
    ];
    for (const text of texts) expect(text).not.toContain(v.hook.secret);
    const gql = await graphql(app, v.key, `{ webhook(id: "${v.hook.id}") { secret } }`);
    expect(gql.json.errors?.[0].message).toContain('Cannot query field "secret"');
  });

  test("SSRF: loopback, private, link-local, unique-local, metadata and numeric forms are refused", async () => {
    const { key, organizationId } = await webhookMember(make);
    const refused = [
      "https://127.0.0.1/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[::127.0.0.1]/hook",
      "https://[::7f00:1]/hook",
      "https://[64:ff9b::a9fe:a9fe]/hook",
      "https://0x7f000001/hook",
      "https://2130706433/hook",
      "https://10.0.0.5/hook",
      "https://100.64.0.1/hook",
      "https://[fd00::1]/hook",
      "https://localhost/hook",
      "https://internal.example/hook",
      "https://metadata.example/hook",
    ];
    for (const url of refused) {
      const response = await send(app, "/api/webhooks", { key, body: { url, events: ALL_EVENTS } });
      expect(response.status, url).toBe(400);
      expect(await response.json(), url).toEqual({
        error: "Validation failed",
        details: [{ path: ["url"], message: expect.stringContaining("loopback, private") }],
      });
    }
    expect(await storedWebhooks(db.database, organizationId)).toEqual([]);
    const ok = await send(app, "/api/webhooks", {
      key,
      body: { url: "https://public.example/hook", events: ALL_EVENTS },
    });
    expect(ok.status).toBe(201);
  });

  test("SSRF: PATCH cannot move a webhook to a private address either", async () => {
    const v = await victim();
    const response = await send(app, `/api/webhooks/${v.hook.id}`, {
      method: "PATCH",
      key: v.key,
      body: { url: "https://internal.example/x" },
    });
    expect(response.status).toBe(400);
    await expectIntact(v);
  });

  test("SSRF after DNS: a name that starts resolving to loopback is refused before the send", async () => {
    const { key } = await make.member({
      scopes: ["webhooks:read", "webhooks:write", "projects:write"],
    });
    FAKE_DNS["rebind.example"] = ["93.184.216.34"];
    const hook = await createWebhook(app, key, {
      url: "https://rebind.example/hook",
      events: ["project.created"],
    });
    FAKE_DNS["rebind.example"] = ["127.0.0.1"];
    expect((await send(app, "/api/projects", { key, body: { name: "P" } })).status).toBe(201);
    let log:
      | { lastError: string | null; lastStatusCode: number | null; attempts: number }
      | undefined;
    await eventually(async () => {
      const res = await send(app, `/api/webhooks/${hook.id}/deliveries`, { key });
      log = (await res.json()).data[0];
      return Boolean(log?.lastError);
    }, "the refused attempt logged");
    expect(log?.lastError).toStartWith("Refused: Must not point to a loopback");
    expect(log?.lastStatusCode).toBeNull();
  });

  test("subscribing to ticket, alert or equipment events needs the resource's read scope on the key", async () => {
    const { key, organizationId } = await webhookMember(make);
    for (const [event, scope] of [
      ["ticket.updated", "tickets:read"],
      ["alert.created", "alerts:read"],
      ["equipment.retired", "equipment:read"],
    ]) {
      const response = await send(app, "/api/webhooks", {
        key,
        body: { url: PUBLIC_URL, events: ["project.created", event] },
      });
      expect({ event, status: response.status, body: await response.json() }).toEqual({
        event,
        status: 403,
        body: { error: `Missing scope: ${scope}` },
      });
    }
    const hook = await createWebhook(app, key);
    const patched = await send(app, `/api/webhooks/${hook.id}`, {
      key,
      method: "PATCH",
      body: { events: ["ticket.created"] },
    });
    expect(patched.status).toBe(403);
    const [stored] = await storedWebhooks(db.database, organizationId);
    expect(stored?.events, "the refused PATCH changed nothing").toEqual(ALL_EVENTS);
    const allowed = await webhookMember(make, { scopes: ["webhooks:write", "tickets:read"] });
    const created = await send(app, "/api/webhooks", {
      key: allowed.key,
      body: { url: PUBLIC_URL, events: ["ticket.created", "webhook.disabled"] },
    });
    expect(created.status).toBe(201);
  });
}

describeEachDriver("webhooks security", suite);
