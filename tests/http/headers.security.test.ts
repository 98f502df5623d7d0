import { expect, test } from "bun:test";
import { generateApiKey } from "../../src/auth/keys.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { CREATE_KEY } from "../helpers/operator-ops.ts";
import { ALL_EVENTS, PUBLIC_URL, WEBHOOK_SCOPES } from "../helpers/webhooks.ts";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver, { env: { RATE_LIMIT_IP_PER_MIN: "5" } });

  test("X-Content-Type-Options: nosniff on every answer, errors and 429s included", async () => {
    const { key } = await make.member({ scopes: ["equipment:read", "projects:read"] });
    const answers: Record<string, Response> = {
      "200 /api/v1": await send(app, "/api/v1/whoami", { key, peer: "192.0.2.1" }),
      "200 /api": await send(app, "/api/projects", { key, peer: "192.0.2.1" }),
      "401": await send(app, "/api/v1/whoami", { peer: "192.0.2.2" }),
      "404 unknown route": await send(app, "/nowhere", { peer: "192.0.2.3" }),
      "400 malformed JSON": await send(app, "/api/projects", {
        key,
        body: "{",
        peer: "192.0.2.4",
      }),
      "413": await send(app, "/api/projects", {
        key,
        body: { name: "x".repeat(1_100_000) },
        peer: "192.0.2.4",
      }),
      "200 /graphql": (await graphql(app, key, "{ whoami { user { id } } }")).response,
      "401 /graphql": (await graphql(app, generateApiKey(), "{ __typename }")).response,
      "400 /graphql": (await graphql(app, key, "{ nope }")).response,
      "404 /install": await send(app, `/install/${crypto.randomUUID()}`, { peer: "192.0.2.5" }),
      "200 /swagger/json": await send(app, "/swagger/json", { peer: "192.0.2.6" }),
    };
    for (let i = 0; i < 6; i++) {
      answers["429"] = await send(app, "/api/v1/whoami", { peer: "192.0.2.7" });
    }
    expect(answers["429"]?.status).toBe(429);
    for (const [name, response] of Object.entries(answers)) {
      expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
    }
  });

  test("Cache-Control: no-store on answers that carry a secret", async () => {
    const webhooks = await make.member({ scopes: WEBHOOK_SCOPES });
    const created = await send(app, "/api/webhooks", {
      key: webhooks.key,
      body: { url: PUBLIC_URL, events: ALL_EVENTS },
      headers: { "idempotency-key": "headers-test-1" },
    });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { secret: string }).secret).toStartWith("whsec_");
    expect(created.headers.get("cache-control"), "webhook secret").toBe("no-store");
    const replayed = await send(app, "/api/webhooks", {
      key: webhooks.key,
      body: { url: PUBLIC_URL, events: ALL_EVENTS },
      headers: { "idempotency-key": "headers-test-1" },
    });
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.headers.get("cache-control"), "an idempotent replay too").toBe("no-store");

    const equipment = await make.member({ scopes: ["equipment:read", "equipment:write"] });
    const bulk = await send(app, "/api/v1/equipments/bulk-create", {
      key: equipment.key,
      body: { items: [{ name: "ws-01", type: "workstation" }] },
    });
    expect(bulk.status).toBe(201);
    const { items } = (await bulk.json()) as { items: { installUrl: string }[] };
    expect(bulk.headers.get("cache-control"), "install links").toBe("no-store");
    const install = await send(app, new URL(items[0]?.installUrl as string).pathname);
    expect(install.status).toBe(200);
    expect(install.headers.get("cache-control"), "the install link's answer").toBe("no-store");

    const { json, response } = await graphql(app, TEST_ADMIN_TOKEN, CREATE_KEY, {
      input: {
        organizationId: equipment.organizationId,
        userId: equipment.user.id,
        name: "ci",
        scopes: ["equipment:read"],
        expiresIn: "NEVER",
      },
    });
    expect(json.data?.createApiKey?.secret).toStartWith("orgit_");
    expect(response.headers.get("cache-control"), "operator createApiKey").toBe("no-store");
  });
}

describeEachDriver("response headers (security)", suite);
