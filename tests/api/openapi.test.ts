import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

type Operation = {
  summary?: string;
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

/** The seed's interface A routes and the contract's extra public routes, all documented. */
const EXPECTED = [
  "GET /api/v1/equipments",
  "POST /api/v1/equipments/bulk-create",
  "GET /api/v1/equipment-units",
  "GET /api/v1/alerts",
  "POST /api/v1/alerts/ingest",
  "GET /api/v1/tickets",
  "POST /api/v1/tickets",
  "GET /api/v1/users",
  "GET /api/v1/groups",
  "GET /api/v1/agent-releases",
  "GET /api/v1/whoami",
  "GET /api/v1/health",
  "GET /install/{token}",
];

function suite(driver: DriverName) {
  const { app } = useTestApp(driver);

  test("every route has a summary, a schema for each documented answer and for its body", async () => {
    const spec = await (await send(app, "/swagger/json")).json();
    const operations: [string, Operation][] = [];
    for (const [path, methods] of Object.entries(
      spec.paths as Record<string, Record<string, Operation>>,
    )) {
      for (const [method, operation] of Object.entries(methods)) {
        operations.push([`${method.toUpperCase()} ${path}`, operation]);
      }
    }
    const names = operations.map(([name]) => name);
    for (const route of EXPECTED) expect(names).toContain(route);
    for (const [name, operation] of operations) {
      expect({ name, summary: typeof operation.summary }).toEqual({ name, summary: "string" });
      const statuses = Object.keys(operation.responses ?? {});
      expect({ name, success: statuses.some((s) => /^2\d\d$/.test(s)) }).toEqual({
        name,
        success: true,
      });
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        const schema = answer.content?.["application/json"]?.schema;
        expect({ name, status, schema: schema !== undefined }).toEqual({
          name,
          status,
          schema: true,
        });
      }
      if (name.startsWith("POST ") && !name.includes("/retry")) {
        const body = operation.requestBody?.content?.["application/json"]?.schema;
        expect({ name, body: body !== undefined }).toEqual({ name, body: true });
      }
    }
  });
}

describeEachDriver("openapi", suite);
