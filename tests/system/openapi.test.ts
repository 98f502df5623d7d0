import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

// biome-ignore lint/suspicious/noExplicitAny: a JSON document read generically
type Json = Record<string, any>;
type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: Json[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { headers?: Json; content?: Record<string, { schema?: unknown }> }>;
};

/** Interface A's routes and the contract's extra public routes, all documented. */
const EXPECTED: Record<string, string> = {
  "GET /api/v1/equipments": "listEquipment",
  "POST /api/v1/equipments/bulk-create": "bulkCreateEquipment",
  "GET /api/v1/equipment-units": "listEquipmentUnits",
  "GET /api/v1/alerts": "listAlerts",
  "POST /api/v1/alerts/ingest": "ingestAlerts",
  "GET /api/v1/tickets": "listTickets",
  "POST /api/v1/tickets": "createTicket",
  "GET /api/v1/users": "listUsers",
  "GET /api/v1/groups": "listGroups",
  "GET /api/v1/agent-releases": "listAgentReleases",
  "GET /api/v1/whoami": "getWhoami",
  "GET /api/v1/health": "getHealth",
  "GET /install/{token}": "getInstallInfo",
  "GET /api/projects": "listProjects",
  "PATCH /api/webhooks/{id}": "updateWebhook",
};

function operationsOf(spec: Json): [string, Operation][] {
  const operations: [string, Operation][] = [];
  for (const [path, methods] of Object.entries(spec.paths as Record<string, Json>))
    for (const [method, operation] of Object.entries(methods))
      operations.push([`${method.toUpperCase()} ${path}`, operation as Operation]);
  return operations;
}

/** Every component schema compiled by Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect). */
function compileSchemas(spec: Json) {
  const ajv = new Ajv2020({ strict: true, validateFormats: false, allErrors: true });
  const defs = JSON.parse(
    JSON.stringify(spec.components.schemas).replaceAll("#/components/schemas/", "#/$defs/"),
  );
  const validators: Record<string, ReturnType<typeof ajv.compile>> = {};
  for (const name of Object.keys(defs))
    validators[name] = ajv.compile({ $defs: defs, $ref: `#/$defs/${name}` });
  return validators;
}

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);
  let spec: Json;
  let specStatus = 0;

  // every test reads the same document, fetched once before any of them (they run in any order)
  beforeAll(async () => {
    const response = await send(app, "/swagger/json");
    specStatus = response.status;
    spec = await response.json();
  });

  test("the document is OpenAPI 3.1 with servers, license, bearer security and stable operation ids", async () => {
    expect(specStatus).toBe(200);
    expect(spec.openapi).toMatch(/^3\.1\.\d+$/);
    expect(spec.servers?.[0]?.url).toBe("http://127.0.0.1:3000");
    expect(spec.info.license?.name).toBeString();
    expect(spec.components.securitySchemes.bearer).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    const ids = Object.fromEntries(operationsOf(spec).map(([name, op]) => [name, op.operationId]));
    for (const [route, id] of Object.entries(EXPECTED))
      expect({ route, id: ids[route] }).toEqual({ route, id });
    for (const [route, id] of Object.entries(ids))
      expect({ route, camelCase: /^[a-z][A-Za-z0-9]*$/.test(id ?? "") }).toEqual({
        route,
        camelCase: true,
      });
    expect(new Set(Object.values(ids)).size).toBe(Object.keys(ids).length);
    // the keyless routes say so; the rest inherit the document's bearer requirement
    expect(spec.paths["/api/v1/alerts/ingest"].post.security).toEqual([]);
    expect(spec.security).toEqual([{ bearer: [] }]);
  });

  test("bodies are JSON only; every answer has a described JSON body (the audit export's is NDJSON); errors and limits are listed", () => {
    for (const [name, operation] of operationsOf(spec)) {
      const media = Object.keys(operation.requestBody?.content ?? {});
      // actions without a body: retrying a delivery, retiring equipment
      if (name.startsWith("POST ") && !name.endsWith("/retry") && !name.endsWith("/retire"))
        expect({ name, media }).toEqual({ name, media: ["application/json"] });
      const responses = operation.responses ?? {};
      for (const [status, answer] of Object.entries(responses)) {
        // the audit trail's export streams one JSON entry per line (docs/api.md)
        const streamed = name === "GET /api/v1/audit-log/export" && status === "200";
        expect({ name, status, media: Object.keys(answer.content ?? {}) }).toEqual({
          name,
          status,
          media: [streamed ? "application/x-ndjson" : "application/json"],
        });
        expect({ name, status, requestId: Boolean(answer.headers?.["X-Request-Id"]) }).toEqual({
          name,
          status,
          requestId: true,
        });
      }
      const statuses = Object.keys(responses);
      if (name.includes(" /api/")) {
        for (const code of ["403", "429", "500"])
          expect({ name, statuses }).toEqual({ name, statuses: expect.arrayContaining([code]) });
        expect(responses["429"]?.headers?.["Retry-After"]).toBeDefined();
      }
      if (operation.requestBody)
        expect({ name, statuses }).toEqual({
          name,
          statuses: expect.arrayContaining(["400", "413", "415"]),
        });
    }
    const create = spec.paths["/api/v1/tickets"].post.responses;
    expect(Object.keys(create["201"].headers)).toEqual(
      expect.arrayContaining([
        "X-RateLimit-Limit",
        "RateLimit",
        "RateLimit-Policy",
        "X-Quota-Remaining",
        "Idempotent-Replayed",
      ]),
    );
    expect(Object.keys(create)).toEqual([
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
  });

  test("paging parameters carry their true bounds and defaults", () => {
    const params = (path: string) =>
      Object.fromEntries(
        (spec.paths[path].get.parameters as Json[]).map((p) => [p.name, p.schema]),
      );
    for (const path of ["/api/v1/tickets", "/api/v1/equipments", "/api/v1/alerts"]) {
      expect(params(path).limit).toMatchObject({
        type: "integer",
        minimum: 1,
        maximum: 200,
        default: 50,
      });
      expect(params(path).offset).toMatchObject({ type: "integer", minimum: 0, default: 0 });
    }
    expect(params("/api/projects").limit).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    expect(params("/api/projects").page).toMatchObject({ minimum: 1, default: 1 });
  });

  test("named component schemas compile in Ajv (2020-12) and match what the service answers", async () => {
    for (const name of [
      "Ticket",
      "Equipment",
      "Project",
      "Webhook",
      "WebhookDelivery",
      "Error",
      "ValidationError",
      "Pagination",
      "RateLimited",
    ])
      expect(Object.keys(spec.components.schemas)).toContain(name);
    const validate = compileSchemas(spec);
    const { key } = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    const created = await send(app, "/api/v1/tickets", {
      key,
      body: { title: "Printer jams", description: "The printer on floor 2 jams." },
    });
    expect(validate.Ticket?.(await created.json()), JSON.stringify(validate.Ticket?.errors)).toBe(
      true,
    );
    const page = await (await send(app, "/api/v1/tickets?limit=5", { key })).json();
    expect(validate.TicketPage?.(page), JSON.stringify(validate.TicketPage?.errors)).toBe(true);
    const invalid = await (await send(app, "/api/v1/tickets?limit=500", { key })).json();
    expect(validate.ValidationError?.(invalid)).toBe(true);
    expect(validate.Ticket?.({ id: 1 })).toBe(false);
  });
}

describeEachDriver("openapi", suite);

describe("openapi lint", () => {
  const { app } = useTestApp("pglite");

  test("Redocly's recommended rules find no error and no warning in /swagger/json", async () => {
    const document = await (await send(app, "/swagger/json")).text();
    const dir = mkdtempSync(join(tmpdir(), "orgit-openapi-"));
    try {
      const file = join(dir, "openapi.json");
      writeFileSync(file, document);
      const cli = new URL("../../node_modules/@redocly/cli/bin/cli.js", import.meta.url).pathname;
      const run = Bun.spawnSync([process.execPath, cli, "lint", "--format=json", file], {
        // no telemetry or update check: tests talk to loopback only
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: "off",
          REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
          CI: "true",
        },
        cwd: dir,
      });
      const report = JSON.parse(run.stdout.toString());
      const problems = (report.problems as Json[]).map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`,
      );
      expect(problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
