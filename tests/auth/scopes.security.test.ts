import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { graphqlError } from "../helpers/lists.ts";

/**
 * The reserved scopes (docs/decisions.md, "Reserved scopes") (`dashboards:read`, `automations:read`, `automations:write`:
 * "reserved; selectable, no public endpoint uses it"): a key may hold them, and they open
 * nothing. Every route still asks for its own scope and names it in the 403.
 */
const RESERVED = ["automations:read", "automations:write", "dashboards:read"];

const ROUTES: { method: string; path: string; body?: unknown; scope: string }[] = [
  { method: "GET", path: "/api/v1/equipments", scope: "equipment:read" },
  {
    method: "POST",
    path: "/api/v1/equipments/bulk-create",
    body: { items: [{ name: "ws", type: "laptop" }] },
    scope: "equipment:write",
  },
  { method: "GET", path: "/api/v1/equipment-units", scope: "equipment:read" },
  { method: "GET", path: "/api/v1/tickets", scope: "tickets:read" },
  {
    method: "POST",
    path: "/api/v1/tickets",
    body: { title: "Printer jams", description: "The printer jams on every page." },
    scope: "tickets:write",
  },
  { method: "GET", path: "/api/v1/users", scope: "users:read" },
  { method: "GET", path: "/api/v1/groups", scope: "users:read" },
  { method: "GET", path: "/api/v1/alerts", scope: "alerts:read" },
  { method: "GET", path: "/api/projects", scope: "projects:read" },
  { method: "POST", path: "/api/projects", body: { name: "Automated" }, scope: "projects:write" },
  { method: "GET", path: "/api/webhooks", scope: "webhooks:read" },
];

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("a key with only the reserved automations:* and dashboards:read scopes is created and authenticates", async () => {
    const { key } = await make.member({ scopes: RESERVED });
    const response = await send(app, "/api/v1/whoami", { key });
    expect(response.status).toBe(200);
    expect((await response.json()).apiKey.scopes.sort()).toEqual([...RESERVED].sort());
  });

  test("automations:* opens no route: each answers 403 naming its own scope, and nothing is created", async () => {
    const { key } = await make.member({ scopes: RESERVED });
    for (const route of ROUTES) {
      const response = await send(app, route.path, {
        method: route.method,
        key,
        body: route.body,
      });
      expect({ route: `${route.method} ${route.path}`, status: response.status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: 403,
      });
      expect(await response.json()).toEqual({ error: `Missing scope: ${route.scope}` });
    }
    // read with a key that may: nothing was written by the automations key
    const admin = await make.member({ scopes: ["projects:read"] });
    const projects = await (await send(app, "/api/projects", { key: admin.key })).json();
    expect(projects.data).toEqual([]);
  });

  test("GraphQL: the automations key is refused the same way", async () => {
    const { key } = await make.member({ scopes: RESERVED });
    expect(await graphqlError(app, key, "{ tickets { data { id } } }")).toMatchObject({
      status: 403,
      message: "Missing scope: tickets:read",
      data: null,
    });
  });

  test("an automations scope outside the reserved ones is refused at key creation", async () => {
    const org = await make.organization();
    const user = await make.user();
    await app.services.operator.addMember({
      organizationId: org.id,
      userId: user.id,
      role: "admin",
    });
    const { json } = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      "mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }",
      {
        input: {
          organizationId: org.id,
          userId: user.id,
          name: "too much",
          scopes: ["automations:read", "automations:execute"],
          expiresIn: "NEVER",
        },
      },
    );
    expect(json.data).toBeNull();
    expect(JSON.stringify(json.errors)).toContain("automations:execute");
  });
}

describeEachDriver("reserved scopes (security)", suite);
