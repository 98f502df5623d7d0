import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import type { OrgitApp } from "../../src/app.ts";
import { generateApiKey } from "../../src/auth/keys.ts";
import { SCOPES } from "../../src/auth/permissions.ts";
import {
  buildTestApp,
  type FreshDatabase,
  factories,
  freshDatabase,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
} from "../helpers/harness.ts";
import { ALL_EVENTS, PUBLIC_URL } from "../helpers/webhooks.ts";

/**
 * Property-based fuzzing of every route the OpenAPI document lists (served in-process at
 * /swagger/json): bodies built from each operation's schema and then mutated (NUL, unpaired
 * surrogates, huge and odd numbers, deep nesting, wrong types, long strings, raw malformed
 * text), random and mutated query strings and path parameters, valid, limited, malformed and
 * unknown keys. The property: never a 5xx, and every error is a JSON body with a string `error`.
 * A fixed seed and a bounded number of runs keep it reproducible and well under a minute;
 * FUZZ_RUNS and FUZZ_SEED override both for a longer local hunt.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 40);

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
};

interface Operation {
  method: string;
  path: string;
  params: { in: string; name: string; schema?: Schema }[];
  body?: Schema;
}

let app: OrgitApp;
let fresh: FreshDatabase;
const operations: Operation[] = [];
/** keys of every kind a caller may present; undefined: no Authorization header */
let keys: (string | undefined)[] = [];
/** ids that exist, so some requests reach past "not found" */
let knownIds: string[] = [];
/** GraphQL operations with plausible variables: [token, document, variables] */
let graphqlCases: [string, string, Record<string, unknown>][] = [];

beforeAll(async () => {
  fresh = await freshDatabase("pglite");
  // random webhook hosts must never reach a real resolver: every name resolves to nothing
  app = await buildTestApp(fresh.database, {
    env: { LOG_LEVEL: "silent" },
    resolveHost: async () => [],
  });
  const make = factories(app);
  const all = await make.member({ scopes: [...SCOPES] });
  const limited = await make.member({ role: "technician", scopes: ["tickets:read"] });
  const free = await make.member({ plan: "FREE", scopes: ["projects:read", "equipment:read"] });
  await app.services.operator.addIngestSource({
    organizationId: all.organizationId,
    cidr: "127.0.0.0/8",
  });
  const project = await (
    await send(app, "/api/projects", { key: all.key, body: { name: "fuzz" } })
  ).json();
  const hook = await (
    await send(app, "/api/webhooks", {
      key: all.key,
      body: { url: PUBLIC_URL, events: ALL_EVENTS },
    })
  ).json();
  const bulk = await (
    await send(app, "/api/v1/equipments/bulk-create", {
      key: all.key,
      body: { items: [{ name: "fuzz", type: "laptop" }] },
    })
  ).json();
  const token = String(bulk.items?.[0]?.installUrl ?? "").split("/install/")[1] ?? "x";
  knownIds = [project.id, hook.id, token, all.user.id];
  keys = [
    ...Array.from({ length: 8 }, () => all.key),
    limited.key,
    free.key,
    undefined,
    generateApiKey(),
    "orgit_short",
    `${all.key.slice(0, -1)}0`,
  ];
  const orgId = all.organizationId;
  const userId = all.user.id;
  const op = (name: string, args: string, call: string) =>
    `mutation (${args}) { ${name}(${call}) { __typename } }`;
  graphqlCases = [
    [
      all.key,
      op("createProject", "$input: CreateProjectInput!", "input: $input"),
      { input: { name: "p", description: "d" } },
    ],
    [
      all.key,
      op("updateProject", "$id: ID!, $input: UpdateProjectInput!", "id: $id, input: $input"),
      { id: project.id, input: { name: "q" } },
    ],
    [
      all.key,
      op("createTicket", "$input: CreateTicketInput!", "input: $input"),
      {
        input: {
          title: "Printer jams",
          description: "Printer on floor 2 jams on every page",
          priority: "high",
        },
      },
    ],
    [
      all.key,
      op("bulkCreateEquipment", "$input: BulkCreateEquipmentInput!", "input: $input"),
      { input: { items: [{ name: "a", type: "laptop" }] } },
    ],
    [
      all.key,
      op("createWebhook", "$input: CreateWebhookInput!", "input: $input"),
      { input: { url: PUBLIC_URL, events: ["project.created"] } },
    ],
    [
      all.key,
      "query ($limit: Int, $offset: Int) { tickets(limit: $limit, offset: $offset) { __typename } }",
      { limit: 10, offset: 0 },
    ],
    [all.key, "query ($id: ID!) { project(id: $id) { __typename } }", { id: project.id }],
    [
      TEST_ADMIN_TOKEN,
      op("createOrganization", "$input: CreateOrganizationInput!", "input: $input"),
      { input: { name: "o" } },
    ],
    [
      TEST_ADMIN_TOKEN,
      op("createUser", "$input: CreateUserInput!", "input: $input"),
      { input: { email: "a@b.co", firstName: "A", lastName: "B" } },
    ],
    [
      TEST_ADMIN_TOKEN,
      op("addMember", "$input: AddMemberInput!", "input: $input"),
      { input: { organizationId: orgId, userId, role: "technician" } },
    ],
    [
      TEST_ADMIN_TOKEN,
      op("createRole", "$input: CreateRoleInput!", "input: $input"),
      {
        input: {
          organizationId: orgId,
          name: "r",
          seat: "TECHNICIAN",
          permissions: ["tickets.manage"],
        },
      },
    ],
    [
      TEST_ADMIN_TOKEN,
      op("createApiKey", "$input: CreateApiKeyInput!", "input: $input"),
      {
        input: {
          organizationId: orgId,
          userId,
          name: "k",
          scopes: ["tickets:read"],
          expiresAt: "2030-01-01T00:00:00Z",
        },
      },
    ],
    [
      TEST_ADMIN_TOKEN,
      op("addIngestSource", "$input: AddIngestSourceInput!", "input: $input"),
      { input: { organizationId: orgId, cidr: "10.0.0.0/8", label: "x" } },
    ],
    [
      TEST_ADMIN_TOKEN,
      op("createAgentRelease", "$input: CreateAgentReleaseInput!", "input: $input"),
      {
        input: {
          version: "1.0.0",
          platform: "linux",
          architecture: "x64",
          channel: "stable",
          downloadUrl: "https://example.com/a",
          sha256: "a".repeat(64),
        },
      },
    ],
  ];
  const doc = await (await send(app, "/swagger/json")).json();
  for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> })?.content;
      operations.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters as Operation["params"]) ?? [],
        body: content?.["application/json"]?.schema,
      });
    }
  }
}, 60_000); // an embedded database and its migrations can take seconds on a loaded machine

afterAll(async () => {
  await app?.stop();
  await fresh?.drop();
});

/** Strings a careless parser or database chokes on. */
const nastyString = fc.oneof(
  fc.constantFrom(
    "a\u0000b",
    "\u0000",
    "\ud800",
    "x\udfffy",
    "",
    " ",
    "null",
    "-1",
    "0",
    "1e309",
    "99999999999999999999",
    "NaN",
    "__proto__",
    "constructor",
    "../../etc/passwd",
    "'; drop table projects; --",
    "https://[::7f00:1]/",
    "http://127.0.0.1/",
    "https://example.com/\u0000",
    "0000-01-01T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "2026-02-31T00:00:00Z",
    "%00",
    "\u202e\ufeff",
    "🚀".repeat(300),
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constant("x".repeat(20_000)),
);

const nastyNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MAX_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** JSON-safe values nested `depth` deep (arrays or objects). */
const nested = (depth: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { "": "" }, { "\u0000": 1 }),
  fc.constantFrom(30, 63, 65, 200).map(nested),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 3 }),
);

/** A plausible value for a schema: its examples, enums and formats, sometimes something else. */
function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return nastyValue;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => fromSchema(s, depth + 1)));
  if ("const" in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      if (schema.format === "uuid") return fc.oneof(fc.uuid(), fc.constantFrom(...knownIds));
      if (schema.format === "date-time")
        return fc
          .date({
            min: new Date("2000-01-01T00:00:00Z"),
            max: new Date("2100-01-01T00:00:00Z"),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString());
      if (schema.format === "uri") return fc.constantFrom(PUBLIC_URL, "https://example.com/x");
      // mostly values that pass validation, so requests get past it to the service and SQL
      return fc.oneof(
        {
          arbitrary: fc.constantFrom(
            "Printer on floor 2 jams on every page",
            "project.created",
            "laptop",
            "workstation",
            "linux",
            "stable",
            PUBLIC_URL,
          ),
          weight: 3,
        },
        { arbitrary: fc.string({ minLength: 1, maxLength: 30 }), weight: 1 },
      );
    case "integer":
      return fc.oneof(
        { arbitrary: fc.integer({ min: 1, max: 50 }), weight: 3 },
        fc.integer({ min: -2, max: 300 }),
      );
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(fromSchema(schema.items, depth + 1), { maxLength: 4 });
    case "object": {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const entries = Object.fromEntries(
        Object.entries(props).map(([name, s]) => [name, fromSchema(s, depth + 1)]),
      );
      return fc.record(entries, {
        requiredKeys: Object.keys(props).filter((name) => required.has(name)),
      });
    }
    default:
      return nastyValue;
  }
}

/** Characters that valid-looking text must not smuggle into storage. */
const poison = fc.constantFrom("\u0000", "\ud800", "\udfff", "\u0000\u0000", "\ud83d");

/**
 * One change to a JSON value: a string somewhere gets a poison character spliced in (the most
 * likely to get past validation), or a spot is replaced by a nasty value, or a field is added.
 */
function mutate(value: unknown): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.nat(), fc.nat(), nastyValue, nastyString, poison)
    .map(([pick, how, nasty, key, bad]) => {
      const spots: { holder: Record<string | number, unknown>; key: string | number }[] = [];
      const walk = (node: unknown) => {
        if (!node || typeof node !== "object") return;
        for (const [k, item] of Object.entries(node)) {
          spots.push({
            holder: node as Record<string, unknown>,
            key: Array.isArray(node) ? Number(k) : k,
          });
          walk(item);
        }
      };
      const copy = structuredClone(value);
      walk(copy);
      const strings = spots.filter((spot) => typeof spot.holder[spot.key] === "string");
      if (how % 3 !== 2 && strings.length > 0) {
        const spot = strings[pick % strings.length] as (typeof strings)[number];
        const text = spot.holder[spot.key] as string;
        const at = pick % (text.length + 1);
        spot.holder[spot.key] = text.slice(0, at) + bad + text.slice(at);
        return copy;
      }
      if (spots.length === 0 || pick % 5 === 0) {
        if (copy && typeof copy === "object" && !Array.isArray(copy)) {
          (copy as Record<string, unknown>)[key] = nasty;
          return copy;
        }
        return nasty;
      }
      const spot = spots[pick % spots.length] as (typeof spots)[number];
      spot.holder[spot.key] = nasty;
      return copy;
    });
}

/** Raw body text: malformed JSON, deep nesting, other media types. */
const rawBody = fc.oneof(
  fc.constantFrom(
    "{",
    "[1,2",
    '{"a":1}garbage',
    "null",
    "42",
    '"str"',
    "[]",
    `{"name":${"[".repeat(5000)}${"]".repeat(5000)}}`,
    `${'{"a":'.repeat(3000)}1${"}".repeat(3000)}`,
    '{"name":"\\ud800"}',
    '{"name":"a\\u0000b"}',
    '{"__proto__":{"admin":true},"name":"x"}',
    '{"name":1e999}',
  ),
  fc.string({ unit: "binary", maxLength: 60 }),
);

interface Attempt {
  key: string | undefined;
  pathValues: unknown[];
  query: [string, unknown][];
  body: { kind: "json"; value: unknown } | { kind: "raw"; text: string; type: string } | undefined;
  idempotencyKey: string | undefined;
}

function attemptFor(op: Operation): fc.Arbitrary<Attempt> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const pathValue = fc.oneof(
    fc.constantFrom(...knownIds),
    fc.uuid(),
    nastyString.filter((s) => s.length < 200),
  );
  const queryEntry = fc.oneof(
    ...queryParams.map((p) =>
      fc.tuple(
        fc.constant(p.name),
        fc.oneof(
          fromSchema(p.schema),
          fc.tuple(fromSchema(p.schema), poison).map(([v, bad]) => `${String(v)}${bad}`),
          nastyString,
          nastyNumber,
        ),
      ),
    ),
    fc.tuple(nastyString, nastyString),
  );
  // most requests keep to the declared parameters, so they get past validation
  const query = fc.oneof(
    { arbitrary: fc.constant([] as [string, unknown][]), weight: 2 },
    { arbitrary: fc.array(queryEntry, { maxLength: 3 }), weight: 2 },
  );
  const jsonBody = fromSchema(op.body).chain((value) =>
    fc.oneof({ arbitrary: fc.constant(value), weight: 2 }, { arbitrary: mutate(value), weight: 3 }),
  );
  const body = op.body
    ? fc.oneof(
        { arbitrary: jsonBody.map((value) => ({ kind: "json" as const, value })), weight: 6 },
        {
          arbitrary: fc
            .tuple(
              rawBody,
              fc.constantFrom(
                "application/json",
                "text/plain",
                "application/x-www-form-urlencoded",
              ),
            )
            .map(([text, type]) => ({ kind: "raw" as const, text, type })),
          weight: 2,
        },
        { arbitrary: fc.constant(undefined), weight: 1 },
      )
    : fc.oneof(
        fc.constant(undefined),
        rawBody.map((text) => ({ kind: "raw" as const, text, type: "application/json" })),
      );
  return fc.record({
    key: fc.constantFrom(...keys),
    pathValues: fc.array(pathValue, { minLength: pathParams.length, maxLength: pathParams.length }),
    query,
    body,
    // a quarter of the requests carry one, mostly well-formed (a few reuse another body's)
    idempotencyKey: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 6 },
      { arbitrary: fc.nat({ max: 50 }).map((n) => `fuzz-${n}`), weight: 2 },
      { arbitrary: fc.oneof(fc.string({ maxLength: 8 }), nastyString), weight: 1 },
    ),
  });
}

/** Percent-encoding that also carries what no URL can (a lone surrogate) as invalid UTF-8 bytes. */
function encode(value: unknown): string {
  const text = String(value);
  try {
    return encodeURIComponent(text);
  } catch {
    return `${encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ""))}%ED%A0%80`;
  }
}

async function perform(op: Operation, attempt: Attempt) {
  let index = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => encode(attempt.pathValues[index++] ?? "x"));
  const search = attempt.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join("&");
  const headers: Record<string, string> = {};
  if (attempt.idempotencyKey !== undefined && /^[\x20-\x7e]*$/.test(attempt.idempotencyKey)) {
    headers["idempotency-key"] = attempt.idempotencyKey;
  }
  let body: string | undefined;
  if (attempt.body?.kind === "json") {
    body = JSON.stringify(attempt.body.value) ?? "null";
    headers["content-type"] = "application/json";
  } else if (attempt.body?.kind === "raw") {
    body = attempt.body.text;
    headers["content-type"] = attempt.body.type;
  }
  return send(app, `${path}${search ? `?${search}` : ""}`, {
    method: op.method,
    key: attempt.key,
    headers,
    body: op.method === "GET" ? undefined : body, // a GET request cannot carry one
  });
}

/** FUZZ_VERBOSE=1 prints how often each route answered each status, to judge coverage. */
const statuses = new Map<string, number>();

test("every route in the OpenAPI document: never a 5xx, every error a JSON { error }", async () => {
  expect(operations.length, "routes found in /swagger/json").toBeGreaterThan(20);
  for (const op of operations) {
    await fc.assert(
      fc.asyncProperty(attemptFor(op), async (attempt) => {
        const response = await perform(op, attempt);
        const text = await response.text();
        const where = `${op.method} ${op.path} → ${response.status} ${text.slice(0, 300)}`;
        const tally = `${op.method} ${op.path} ${response.status}`;
        statuses.set(tally, (statuses.get(tally) ?? 0) + 1);
        if (process.env.FUZZ_VERBOSE === "2" && response.status === 400) console.log(where);
        if (response.status >= 500) throw new Error(`server error: ${where}`);
        if (response.status >= 400) {
          const type = response.headers.get("content-type") ?? "";
          if (!type.includes("application/json")) throw new Error(`not JSON: ${type} ${where}`);
          const json = JSON.parse(text);
          if (typeof json?.error !== "string") throw new Error(`no error field: ${where}`);
        }
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
  }
  if (process.env.FUZZ_VERBOSE) console.log([...statuses].sort().join("\n"));
}, 120_000);

test("/graphql: mutated variables of domain and operator operations never give a 5xx or an internal error", async () => {
  for (const [token, document, variables] of graphqlCases) {
    // the unmutated call must be a valid document, or the fuzzing below would test nothing
    const pristine = await graphql(app, token, document, variables);
    const invalid = pristine.json.errors?.find((e) => !e.extensions?.code);
    expect(invalid?.message, document).toBeUndefined();
    await fc.assert(
      fc.asyncProperty(mutate(variables), async (mutated) => {
        const { response, json } = await graphql(
          app,
          token,
          document,
          mutated as Record<string, unknown>,
        );
        const where = `${document} ${JSON.stringify(mutated).slice(0, 200)} → ${response.status} ${JSON.stringify(json).slice(0, 300)}`;
        if (response.status >= 500) throw new Error(`server error: ${where}`);
        const internal = json.errors?.find(
          (e) => e.extensions?.code === "INTERNAL" || e.message === "Internal server error",
        );
        if (internal) throw new Error(`internal error: ${where}`);
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
  }
}, 120_000);
