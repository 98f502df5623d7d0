import { beforeAll, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { seedDemoQuietly } from "../helpers/demo.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * The list pages' envelopes are not checked again on every request (`noValidate` in
 * src/http/list-schemas.ts, docs/decisions.md §36): this suite holds the answers to them instead.
 * Every GET route of /api/v1 the OpenAPI document answers with a page (`data`, `pagination`) is called
 * over the demo organization, where each list has rows, and its answer must match the
 * documented schema, formats included; a new list route is found here without being named.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON document read generically
type Json = Record<string, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 with a zone, as `Date.toISOString` writes it and clients parse it */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function validators(spec: Json) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  ajv.addFormat("uuid", UUID);
  ajv.addFormat("date-time", DATE_TIME);
  ajv.addFormat("uri", (value: string) => URL.canParse(value));
  const defs = JSON.parse(
    JSON.stringify(spec.components.schemas).replaceAll("#/components/schemas/", "#/$defs/"),
  );
  return (schema: Json) =>
    ajv.compile({
      $defs: defs,
      ...JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/")),
    });
}

/** The component a `$ref` names, or the schema itself. */
const resolved = (spec: Json, schema: Json): Json =>
  typeof schema.$ref === "string"
    ? spec.components.schemas[schema.$ref.replace("#/components/schemas/", "")]
    : schema;

/**
 * Every GET path of /api/v1 answered with a page, with its 200 schema. (The project API's lists,
 * /api/projects and /api/webhooks, keep their per-request check: they are not built by
 * `envelope`.)
 */
function pageRoutes(spec: Json): [string, Json][] {
  const found: [string, Json][] = [];
  for (const [path, methods] of Object.entries(spec.paths as Record<string, Json>)) {
    if (!path.startsWith("/api/v1/")) continue;
    const schema = methods.get?.responses?.["200"]?.content?.["application/json"]?.schema;
    if (!schema) continue;
    const { properties } = resolved(spec, schema);
    if (properties?.data?.type === "array" && properties.pagination) found.push([path, schema]);
  }
  return found;
}

function suite(driver: DriverName) {
  const { app } = useTestApp(driver);
  let spec: Json;
  let key: string;
  let ticketId: string;

  beforeAll(async () => {
    key = await seedDemoQuietly(app);
    spec = await (await send(app, "/swagger/json")).json();
    const tickets = await (await send(app, "/api/v1/tickets?limit=1", { key })).json();
    ticketId = tickets.data[0].id;
    const comment = await send(app, `/api/v1/tickets/${ticketId}/comments`, {
      key,
      body: { body: "Checked the paper tray." },
    });
    expect(comment.status).toBe(201);
  });

  test("every page route answers its documented envelope, items and formats included", async () => {
    const compile = validators(spec);
    const routes = pageRoutes(spec);
    // Interface A's seven lists and the ticket comments at least
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const [path, schema] of routes) {
      const url = path.replace("{id}", ticketId);
      expect({ path, unfilled: /\{\w+\}/.test(url) }).toEqual({ path, unfilled: false });
      const response = await send(app, url, { key });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      const body = await response.json();
      // an empty page would prove nothing of the items' shape
      expect({ path, empty: body.data.length === 0 }).toEqual({ path, empty: false });
      const validate = compile(schema);
      expect({ path, valid: validate(body), errors: validate.errors ?? null }).toEqual({
        path,
        valid: true,
        errors: null,
      });
    }
  });

  test("the check is real: a wrong item, format or missing field fails it", async () => {
    const compile = validators(spec);
    const [, schema] = pageRoutes(spec).find(([path]) => path === "/api/v1/tickets") ?? [];
    const validate = compile(schema as Json);
    const page = await (await send(app, "/api/v1/tickets?limit=2", { key })).json();
    expect(validate(page)).toBe(true);
    const broken = (change: (item: Json) => void) => {
      const copy = structuredClone(page);
      change(copy.data[0]);
      return validate(copy);
    };
    expect(broken((item) => (item.id = "not-a-uuid"))).toBe(false);
    expect(broken((item) => (item.created_at = "yesterday"))).toBe(false);
    expect(broken((item) => delete item.title)).toBe(false);
    expect(broken((item) => (item.status = "lost"))).toBe(false);
  });
}

describeEachDriver("list shapes", suite);
