/**
 * The error bodies and response headers every route shares, as OpenAPI components, and which of
 * them each kind of route answers with (see document.ts).
 */

/** A: interface A (key, limits, quota); B: interface B (key, plan limit); ingest: no key. */
export type RouteFamily = "A" | "B" | "ingest" | "public";

// biome-ignore lint/suspicious/noExplicitAny: JSON fragments of the document
type Json = Record<string, any>;

const ref = (kind: "schemas" | "headers", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

export const COMPONENT_SCHEMAS: Json = {
  Error: {
    type: "object",
    required: ["error"],
    properties: { error: { type: "string", description: "what went wrong, in plain words" } },
  },
  ErrorDetail: {
    type: "object",
    required: ["path", "message"],
    properties: {
      path: {
        type: "array",
        items: { type: "string" },
        description: 'names the field, e.g. ["items", "0", "name"]',
      },
      message: { type: "string" },
    },
  },
  ValidationError: {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "string",
        description: "`Validation failed` (with details), or `Malformed JSON body`",
      },
      details: { type: "array", items: ref("schemas", "ErrorDetail") },
    },
  },
  RateLimited: {
    type: "object",
    required: ["error"],
    description:
      "A 429 answer: a rate limit gives `retryAfter` (seconds until a request is allowed again), the daily quota its `limit`, `used` and `window`.",
    properties: {
      error: {
        type: "string",
        description:
          "`Too many requests` (per IP), `API key rate limit exceeded` (per key or burst), " +
          "`API quota exceeded` (daily quota), `Rate limit exceeded` (interface B plan limit)",
      },
      retryAfter: { type: "integer", minimum: 1, description: "seconds; rate limits only" },
      limit: { type: "integer", description: "daily quota only" },
      used: { type: "integer", description: "daily quota only" },
      window: { type: "string", const: "24h", description: "daily quota only" },
    },
  },
};

const integerHeader = (description: string, minimum = 0) => ({
  description,
  schema: { type: "integer", minimum },
});
const quotaHeader = (description: string) => ({
  description: `${description}; \`unlimited\` on an unlimited plan`,
  schema: { type: "string", pattern: "^([0-9]+|unlimited)$" },
});

export const COMPONENT_HEADERS: Json = {
  "X-Request-Id": {
    description: "the request's id (yours if you sent a valid one); logs carry it too",
    schema: { type: "string" },
  },
  Link: {
    description:
      'RFC 8288 links of a list page: rel="next" (by cursor, absent on the last page), ' +
      'rel="prev" (absent on the first) and rel="first", keeping the filters and limit',
    schema: { type: "string" },
  },
  "X-RateLimit-Limit": integerHeader("size of the bucket closest to exhaustion", 1),
  "X-RateLimit-Remaining": integerHeader("requests left in that bucket"),
  "X-RateLimit-Reset": integerHeader("seconds until that bucket is full again"),
  RateLimit: {
    description: 'IETF draft-11 field for that bucket, e.g. `"ip";r=42;t=18`',
    schema: { type: "string" },
  },
  "RateLimit-Policy": {
    description:
      'IETF draft-11 policies, e.g. `"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1`',
    schema: { type: "string" },
  },
  "Retry-After": integerHeader("whole seconds to wait before retrying", 1),
  "X-Quota-Limit": quotaHeader("the organization's daily quota (sliding 24 h)"),
  "X-Quota-Used": {
    description: "requests counted in the last 24 h",
    schema: { type: "integer", minimum: 0 },
  },
  "X-Quota-Remaining": quotaHeader("requests left in the daily quota"),
  ETag: {
    description:
      'the record\'s version, e.g. `"3"`: send it back as `If-Match` to change only that version',
    schema: { type: "string" },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this is the stored answer to an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  },
};

const RATE_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
];
const QUOTA_HEADERS = ["X-Quota-Limit", "X-Quota-Used", "X-Quota-Remaining"];

/** The headers an answer with `code` carries on a route of `family`. */
export function headersFor(
  family: RouteFamily,
  code: number,
  idempotent = false,
  /** a list (it takes `after`): its answers carry `Link` */
  list = false,
): Json {
  const names = ["X-Request-Id"];
  if (list && code < 300) names.push("Link");
  // every /api/v1 answer carries the rate headers; interface B's once the key is known
  if (family === "A" || family === "ingest" || (family === "B" && code !== 401))
    names.push(...RATE_HEADERS);
  if (family === "A" && (code < 300 || code === 429)) names.push(...QUOTA_HEADERS);
  if (code === 429) names.push("Retry-After");
  if (idempotent && code < 300) names.push("Idempotent-Replayed");
  return Object.fromEntries(names.map((name) => [name, ref("headers", name)]));
}

const DEFAULT_DESCRIPTIONS: Record<number, string> = {
  400: "Validation failed, with details naming each field; or a malformed JSON body",
  401: "`Missing API key`, `Invalid API key`, `API key expired`, `API key revoked`, or the key's owner left the organization",
  403: "Missing scope or permission, a plan without API access, or `HTTPS required`",
  404: "Not found (another organization's records included)",
  413: "`Request body too large (limit 1 MiB)`",
  415: "The body is not JSON: send it with `Content-Type: application/json`",
  429: "A rate limit or the daily quota is exhausted; wait `Retry-After` seconds",
  500: "Unexpected error; the cause is logged with the request id",
};
const FAMILY_403: Partial<Record<RouteFamily, string>> = {
  ingest: "`IP not allowed` (no ingest source covers the caller), or `HTTPS required`",
  public: "`HTTPS required`",
};

/** An error answer: its description (the route's own if it gave one), body and headers. */
export function errorResponse(family: RouteFamily, code: number, described?: string): Json {
  const fallback = (code === 403 && FAMILY_403[family]) || DEFAULT_DESCRIPTIONS[code] || "Error";
  const schema = code === 400 ? "ValidationError" : code === 429 ? "RateLimited" : "Error";
  return {
    description: described || fallback,
    headers: headersFor(family, code),
    content: { "application/json": { schema: ref("schemas", schema) } },
  };
}
