import type { Config } from "../config.ts";
import { PAGE_LIMIT, PAGE_NUMBER_LIMITS } from "../db/paging.ts";
import {
  COMPONENT_HEADERS,
  COMPONENT_SCHEMAS,
  errorResponse,
  headersFor,
  type RouteFamily,
} from "./components.ts";
import type { OpenApiNames } from "./names.ts";
import { cleanSchema, hoistNamedSchemas } from "./schemas.ts";

/**
 * The one place where the document Elysia generates from the routes' typebox schemas becomes
 * the published OpenAPI 3.1 document: stable operation ids, bounds and defaults of the paging
 * parameters, JSON-only bodies, every status a route can answer with its body and headers,
 * named component schemas, servers and license. `tests/system/openapi.test.ts` lints the result
 * with Redocly's recommended rules and compiles every schema with Ajv.
 */

// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked generically
export type OpenApiDocument = Record<string, any>;
// biome-ignore lint/suspicious/noExplicitAny: a JSON document walked generically
type Json = Record<string, any>;

/** A route added later still gets a camelCase id: `GET /readyz` → `getReadyz`. */
export function fallbackOperationId(method: string, path: string): string {
  const words = path
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word && word !== "api" && !/^v\d+$/.test(word));
  return [method.toLowerCase(), ...words]
    .map((word, i) => (i === 0 ? word : word[0]?.toUpperCase() + word.slice(1)))
    .join("");
}

/** The paging parameters' real bounds and defaults (the domain checks them; see list-schemas). */
const PAGING: Record<RouteFamily, Record<string, Json>> = {
  A: {
    limit: { minimum: PAGE_LIMIT.min, maximum: PAGE_LIMIT.max, default: PAGE_LIMIT.default },
    offset: { minimum: 0, default: 0 },
  },
  B: {
    page: { minimum: PAGE_NUMBER_LIMITS.page.min, default: PAGE_NUMBER_LIMITS.page.default },
    limit: {
      minimum: PAGE_NUMBER_LIMITS.limit.min,
      maximum: PAGE_NUMBER_LIMITS.limit.max,
      default: PAGE_NUMBER_LIMITS.limit.default,
    },
  },
  ingest: {},
  public: {},
};

export const familyOf = (path: string): RouteFamily =>
  path === "/api/v1/alerts/ingest"
    ? "ingest"
    : path.startsWith("/api/v1/")
      ? "A"
      : path.startsWith("/api/")
        ? "B"
        : "public";

/** What Elysia keeps of a route: its path (`:id` style) and the typebox body schema. */
export interface RouteInfo {
  method: string;
  path: string;
  hooks?: { body?: unknown };
}

const toOpenApiPath = (path: string) => path.replace(/:([^/]+)/g, "{$1}");

export function finishDocument(
  generated: OpenApiDocument,
  config: Config,
  routes: readonly RouteInfo[],
  names: OpenApiNames,
): OpenApiDocument {
  const bodies = new Map<string, unknown>();
  for (const route of routes)
    if (route.hooks?.body)
      bodies.set(`${route.method.toUpperCase()} ${toOpenApiPath(route.path)}`, route.hooks.body);

  const paths: Json = {};
  for (const [path, methods] of Object.entries(generated.paths as Json)) {
    paths[path] = {};
    for (const [method, operation] of Object.entries(methods as Json)) {
      const key = `${method.toUpperCase()} ${path}`;
      paths[path][method] = finishOperation(key, path, operation, bodies.get(key), names);
    }
  }
  const schemas: Json = { ...COMPONENT_SCHEMAS };
  hoistNamedSchemas(paths, schemas);
  return {
    openapi: "3.1.1",
    info: {
      title: "orgit API",
      version: "1.0.0",
      summary: "Organization IT management: equipment, alerts, tickets, projects, webhooks",
      description:
        "Organization IT management: equipment, units, alerts, tickets, users, groups and agent " +
        "releases under `/api/v1`; projects and signed webhooks under `/api`. Routes tagged " +
        "`extensions` go beyond the original API (updates, sync, audit). Authenticate with " +
        "`Authorization: Bearer orgit_…` (a key from the settings screen at /login). Errors are " +
        "`{ error, details? }`; every answer carries `X-Request-Id`, and rate limits and the " +
        "daily quota are told in each answer's `RateLimit`, `X-RateLimit-*` and `X-Quota-*` " +
        "headers. Webhook deliveries are signed as Standard Webhooks specifies " +
        "(`webhook-id`, `webhook-timestamp`, `webhook-signature`).",
      // package.json's `UNLICENSED` is no SPDX license id; SPDX names one of its own LicenseRef-…
      license: {
        name: "UNLICENSED (proprietary; all rights reserved)",
        identifier: "LicenseRef-orgit-proprietary",
      },
    },
    servers: [{ url: config.publicBaseUrl, description: "this instance (PUBLIC_BASE_URL)" }],
    security: [{ bearer: [] }],
    tags: collectTags(paths, names.tags),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API key, `orgit_` followed by 40 characters",
        },
      },
      schemas,
      headers: COMPONENT_HEADERS,
    },
  };
}

function finishOperation(
  key: string,
  path: string,
  generated: Json,
  body: unknown,
  names: OpenApiNames,
): Json {
  const family = familyOf(path);
  const method = key.split(" ")[0] as string;
  const operation: Json = { ...generated };
  operation.operationId = names.operationIds[key] ?? fallbackOperationId(method, path);
  if (family === "ingest" || family === "public") operation.security = [];

  if (operation.parameters) {
    operation.parameters = (operation.parameters as Json[]).map((parameter) => {
      const schema = cleanSchema(parameter.schema);
      const bounds = parameter.in === "query" ? PAGING[family][parameter.name] : undefined;
      // header names are case-insensitive; the documented spelling is the conventional one
      const name =
        parameter.in === "header" && parameter.name === "idempotency-key"
          ? "Idempotency-Key"
          : parameter.name;
      return { ...parameter, name, schema: bounds ? { ...schema, ...bounds } : schema };
    });
  }
  // the route's typebox body, or the one its `detail` documents (a body the service checks
  // itself); JSON only, since any other body is answered 415 (see json-body.ts)
  const bodySchema =
    body !== undefined
      ? JSON.parse(JSON.stringify(body))
      : generated.requestBody?.content?.["application/json"]?.schema;
  if (bodySchema !== undefined) {
    operation.requestBody = {
      required: true,
      content: { "application/json": { schema: cleanSchema(bodySchema) } },
    };
  } else delete operation.requestBody;

  const idempotent = (operation.parameters as Json[] | undefined)?.some(
    (parameter) => parameter.name === "Idempotency-Key",
  );
  const list = (operation.parameters as Json[] | undefined)?.some(
    (parameter) => parameter.name === "after" && parameter.in === "query",
  );
  const responses: Json = {};
  // a route answering a stream names its media type in `detail` (e.g. application/x-ndjson)
  const mediaType = (operation["x-media-type"] as string | undefined) ?? "application/json";
  delete operation["x-media-type"];
  for (const [status, response] of Object.entries((generated.responses ?? {}) as Json)) {
    const code = Number(status);
    if (code >= 400) continue; // rebuilt below from the shared error answers
    const schema = response.content?.["application/json"]?.schema;
    const headers = headersFor(family, code, idempotent, list);
    // a versioned record (the extension routes' answers) carries its version as ETag
    if (schema?.properties?.version) headers.ETag = { $ref: "#/components/headers/ETag" };
    responses[status] = {
      description: schema?.description ?? successDescription(code),
      headers,
      content: {
        [code < 300 ? mediaType : "application/json"]: { schema: cleanSchema(schema ?? {}) },
      },
    };
  }
  const declared = Object.entries((generated.responses ?? {}) as Json).filter(
    ([status]) => Number(status) >= 400,
  );
  const statuses = new Set(declared.map(([status]) => Number(status)));
  if (family !== "public") {
    for (const code of [403, 429, 500]) statuses.add(code);
    if (family !== "ingest") statuses.add(401);
  } else {
    statuses.add(500);
    if (path.startsWith("/install/")) statuses.add(403);
  }
  // a malformed path id is a 404, not a 400: only a body or a query string can fail validation
  const hasInput =
    bodySchema !== undefined ||
    (operation.parameters as Json[] | undefined)?.some((parameter) => parameter.in === "query");
  if (hasInput && family !== "public") statuses.add(400);
  if (path.includes("{") && family !== "public") statuses.add(404);
  if (bodySchema !== undefined) {
    statuses.add(413);
    statuses.add(415);
  }
  const descriptions = new Map(
    declared.map(([status, response]) => [
      Number(status),
      (response.content?.["application/json"]?.schema?.description ?? response.description) as
        | string
        | undefined,
    ]),
  );
  for (const code of [...statuses].sort((a, b) => a - b)) {
    responses[String(code)] = errorResponse(family, code, descriptions.get(code));
  }
  operation.responses = responses;
  return operation;
}

const successDescription = (code: number) =>
  code === 201 ? "Created" : code === 202 ? "Accepted" : "OK";

function collectTags(paths: Json, descriptions: OpenApiNames["tags"]): Json[] {
  const names = new Set<string>();
  for (const methods of Object.values(paths))
    for (const operation of Object.values(methods as Json))
      for (const tag of (operation as Json).tags ?? []) names.add(tag);
  return [...names].map((name) => ({ name, description: descriptions[name] ?? name }));
}
