import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  alerts,
  equipment,
  projects,
  tickets,
  webhookSubscriptions,
} from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";

/**
 * Text Postgres cannot store (NUL, unpaired surrogates), impossible or out-of-range dates and
 * deep nesting: every surface answers 400 `Validation failed` naming the field (REST) or the
 * same error in GraphQL's shape, and nothing is stored. Each of these answered 500 before.
 */
const NUL = "a\u0000b";
const LONE = "a\ud800b";
const INGEST = "/api/v1/alerts/ingest";

/** 10,000 nested arrays as text (JSON.stringify would itself recurse that deep) */
const deepJson = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

const SCOPES = [
  "projects:read",
  "projects:write",
  "webhooks:read",
  "webhooks:write",
  "tickets:read",
  "tickets:write",
  "equipment:read",
  "equipment:write",
  "alerts:read",
];

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const member = () => make.member({ scopes: SCOPES });

  async function expectRefused(response: Response, path: string[], what: string) {
    const body = await response.json();
    expect(response.status, `${what}: status (${JSON.stringify(body)})`).toBe(400);
    expect(body.error, what).toBe("Validation failed");
    expect(
      body.details.map((d: { path: string[] }) => d.path),
      what,
    ).toContainEqual(path);
  }

  const count = async (table: PgTable & { organizationId: PgColumn }, organizationId: string) =>
    db.database.db.$count(table, eq(table.organizationId, organizationId));

  test("REST bodies: NUL and unpaired surrogates in any text field → 400 naming it, nothing stored", async () => {
    const { key, organizationId } = await member();
    const cases: [string, string, unknown, string[]][] = [
      ["POST", "/api/projects", { name: NUL }, ["name"]],
      ["POST", "/api/projects", { name: "ok", description: LONE }, ["description"]],
      ["POST", "/api/v1/tickets", { title: NUL, description: "d".repeat(20) }, ["title"]],
      [
        "POST",
        "/api/v1/tickets",
        { title: "Printer", description: `${LONE}xxxxxxxxxx` },
        ["description"],
      ],
      [
        "POST",
        "/api/v1/equipments/bulk-create",
        {
          items: [
            { name: "ok", type: "laptop" },
            { name: NUL, type: "laptop" },
          ],
        },
        ["items", "1", "name"],
      ],
      [
        "POST",
        "/api/webhooks",
        { url: `https://93.184.216.34/${NUL}`, events: ["project.created"] },
        ["url"],
      ],
      ["POST", "/api/webhooks", { url: "https://93.184.216.34/h", events: [NUL] }, ["events", "0"]],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await send(app, path, { method, key, body });
      await expectRefused(response, field, `${method} ${path} ${JSON.stringify(body)}`);
    }
    expect(await count(projects, organizationId)).toBe(0);
    expect(await count(tickets, organizationId)).toBe(0);
    expect(await count(equipment, organizationId)).toBe(0);
    expect(await count(webhookSubscriptions, organizationId)).toBe(0);
  });

  test("PATCH, query filters and path parameters with NUL → 400 naming the field", async () => {
    const { key } = await member();
    const created = await send(app, "/api/projects", { key, body: { name: "Keep" } });
    const project = await created.json();
    await expectRefused(
      await send(app, `/api/projects/${project.id}`, { method: "PATCH", key, body: { name: NUL } }),
      ["name"],
      "PATCH project",
    );
    await expectRefused(
      await send(app, "/api/v1/agent-releases?channel=st%00able", { key }),
      ["channel"],
      "query filter",
    );
    await expectRefused(
      await send(app, "/api/v1/agent-releases?status=x&channel=beta%00", { key }),
      ["channel"],
      "query filter at the end",
    );
    await expectRefused(await send(app, "/install/abc%00def"), ["token"], "path parameter");
    const kept = await send(app, `/api/projects/${project.id}`, { key });
    expect((await kept.json()).name).toBe("Keep");
  });

  test("keyless ingest: NUL in a field, and impossible or out-of-range occurredAt → 400 naming it", async () => {
    const { organizationId } = await member();
    await app.services.operator.addIngestSource({ organizationId, cidr: "127.0.0.0/8" });
    const cases: [unknown, string[]][] = [
      [{ source: NUL, title: "t" }, ["source"]],
      [{ alerts: [{ source: "s", title: LONE }] }, ["alerts", "0", "title"]],
      [{ source: "s", title: "t", occurredAt: "0000-06-01T00:00:00Z" }, ["occurredAt"]],
      [{ source: "s", title: "t", occurredAt: "+010000-01-01T00:00:00Z" }, ["occurredAt"]],
      [{ source: "s", title: "t", occurredAt: "10000-01-01T00:00:00Z" }, ["occurredAt"]],
      [{ source: "s", title: "t", occurredAt: "2026-02-31T12:00:00Z" }, ["occurredAt"]],
      [{ source: "s", title: "t", occurredAt: "2026-04-31T12:00:00Z" }, ["occurredAt"]],
      [{ source: "s", title: "t", occurredAt: "2026-01-31T24:00:00Z" }, ["occurredAt"]],
      [{ source: "s", title: "t", occurredAt: "0001-01-01T00:30:00+01:00" }, ["occurredAt"]],
    ];
    for (const [body, field] of cases) {
      await expectRefused(
        await send(app, INGEST, { method: "POST", body }),
        field,
        JSON.stringify(body),
      );
    }
    expect(await count(alerts, organizationId)).toBe(0);
    const leap = await send(app, INGEST, {
      method: "POST",
      body: { source: "s", title: "t", occurredAt: "2028-02-29T12:00:00Z" },
    });
    expect(leap.status, "a real leap day is accepted").toBe(202);
  });

  test("JSON nested 10,000 deep inside a validated field → 400, not a stack overflow", async () => {
    const { key } = await member();
    for (const [path, body] of [
      ["/api/projects", `{"name":"x","description":${deepJson(10_000)}}`],
      ["/api/v1/tickets", `{"title":${deepJson(10_000)},"description":"x"}`],
      ["/api/v1/equipments/bulk-create", `{"items":${deepJson(100_000)}}`],
      [INGEST, `{"source":"s","title":"t","message":${deepJson(10_000)}}`],
      ["/graphql", `{"query":"{ whoami { user { id } } }","variables":{"x":${deepJson(10_000)}}}`],
    ] as const) {
      const response = await send(app, path, { method: "POST", key, body });
      await expectRefused(response, ["body"], `deep ${path}`);
    }
    const { key: k2 } = await member();
    // 64 levels is still fine (the cap counts the body's own object as the first level)
    const ok = await send(app, "/api/projects", {
      key: k2,
      body: `{"name":"x","description":"y","extra":${deepJson(60)}}`,
    });
    expect(ok.status).toBeLessThan(500);
  });

  test("GraphQL: NUL in an argument literal or a variable → Validation failed with details", async () => {
    const { key, organizationId } = await member();
    const literal = await graphql(
      app,
      key,
      'mutation { createProject(input: { name: "a\\u0000b" }) { id } }',
    );
    expect(literal.json.errors?.[0]?.message).toBe("Validation failed");
    expect(literal.json.errors?.[0]?.extensions?.details).toEqual([
      { path: ["input", "name"], message: expect.stringContaining("NUL") },
    ]);
    const variable = await graphql(
      app,
      key,
      "mutation ($input: CreateProjectInput!) { createProject(input: $input) { id } }",
      { input: { name: "ok", description: LONE } },
    );
    expect(variable.json.errors?.[0]?.message).toBe("Validation failed");
    expect(variable.json.errors?.[0]?.extensions?.details?.[0]?.path).toEqual([
      "input",
      "description",
    ]);
    expect(await count(projects, organizationId)).toBe(0);
    const operator = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      "mutation ($name: String!) { createOrganization(input: { name: $name }) { id } }",
      { name: NUL },
    );
    expect(operator.json.errors?.[0]?.extensions?.details?.[0]?.path).toEqual(["name"]);
  });

  test("GraphQL DateTime: impossible days and years outside 0001–9999 are refused, never a 500", async () => {
    const { organizationId, user } = await member();
    for (const expiresAt of [
      "10000-01-01T00:00:00Z",
      "2030-02-31T00:00:00Z",
      "+275760-09-13T00:00:00Z",
    ]) {
      const { response, json } = await graphql(
        app,
        TEST_ADMIN_TOKEN,
        `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }`,
        {
          input: {
            organizationId,
            userId: user.id,
            name: "k",
            scopes: ["tickets:read"],
            expiresAt,
          },
        },
      );
      expect(response.status, expiresAt).toBeLessThan(500);
      expect(json.errors?.[0]?.message, expiresAt).toContain("DateTime");
      expect(json.data?.createApiKey, expiresAt).toBeFalsy();
    }
  });
}

describeEachDriver("input safety", suite);
