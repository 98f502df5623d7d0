import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import type { OrgitApp } from "../../src/app.ts";
import { SCOPES } from "../../src/auth/permissions.ts";
import { GRAPHQL_LIMITS } from "../../src/graphql/limits.ts";
import {
  buildTestApp,
  type FreshDatabase,
  factories,
  freshDatabase,
  send,
  TEST_ADMIN_TOKEN,
} from "../helpers/harness.ts";
import { memberWithPassword } from "../helpers/settings.ts";

/**
 * The second fuzz (docs/security.md, "Fuzzing in CI"): the settings pages with random forms and
 * cookies, and /graphql with random documents (aliases, fragments and their spreads, variables,
 * GET parameters). The property: never a 5xx, never an INTERNAL error, never an answer over
 * the size cap. Fixed seed, bounded runs: well under a minute; FUZZ_SEED and FUZZ_RUNS override.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const ANSWER_CAP = GRAPHQL_LIMITS.maxAnswerChars + 1024;

let app: OrgitApp;
let fresh: FreshDatabase;
let session = "";
let csrf = "";
let orgId = "";
let keyId = "";
let tokens: (string | undefined)[] = [];

beforeAll(async () => {
  fresh = await freshDatabase("pglite");
  app = await buildTestApp(fresh.database, { env: { LOG_LEVEL: "silent" } });
  const make = factories(app);
  const member = await make.member({ scopes: [...SCOPES] });
  orgId = member.organizationId;
  // the pages may revoke this one; the GraphQL property keeps its own key
  keyId = (await make.member({ organizationId: orgId, role: "technician" })).apiKey.id;
  const user = await memberWithPassword(app, make, orgId, "admin");
  // a signed-in browser without a password check (each costs one scrypt hash)
  session = await app.services.sessions.create(user.id);
  const { sessionCsrfToken } = await import("../../src/auth/sessions.ts");
  csrf = sessionCsrfToken(session);
  tokens = [member.key, TEST_ADMIN_TOKEN, undefined, "orgit_not_a_key", "Bearer"];
});

afterAll(async () => {
  await app?.stop();
  await fresh?.drop();
});

const POISON = ["", "\u0000", "\uD800", "\u202E", "\u200B", "'\"<>&", "%", "%%", "=", ";", "\n\r"];
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(...POISON),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constant("x".repeat(5_000)),
);
// what a header can carry: visible ASCII without `;` (anything else never leaves a browser)
const cookieValue = fc
  .oneof(text, fc.constant("SESSION"), fc.base64String({ maxLength: 200 }))
  .map((value) => value.replace(/[^\x21-\x3a\x3c-\x7e]/g, ""));
const cookieName = fc.constantFrom(
  "orgit_session",
  "orgit_csrf",
  "orgit_new_key",
  "__Host-orgit_session",
  "other",
);
const cookies = fc
  .array(fc.tuple(cookieName, cookieValue), { maxLength: 4 })
  .map((pairs) => pairs.map(([n, v]) => `${n}=${v.replace("SESSION", session)}`).join("; "));

const pagePaths = fc.constantFrom(
  "/login",
  "/logout",
  "/settings/api-keys",
  "/settings/api-keys/KEY/revoke",
  "/invite/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "/invite/short",
);
const fieldName = fc.constantFrom(
  "_csrf",
  "email",
  "password",
  "passwordConfirm",
  "org",
  "name",
  "scopes",
  "expiration",
  "x",
);
const fieldValue = fc.oneof(
  text,
  fc.constant("CSRF"),
  fc.constant("ORG"),
  fc.constantFrom("tickets:read", "NEVER", "DAYS_30", "webhooks:write"),
);
const form = fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 8 });

const fill = (value: string) =>
  value.replaceAll("CSRF", csrf).replaceAll("ORG", orgId).replaceAll("KEY", keyId);

/** status counts per surface, printed with FUZZ_VERBOSE=1 */
const seen: Record<string, number> = {};
afterAll(() => {
  if (process.env.FUZZ_VERBOSE) console.log(seen);
});

/** One answer checked against the property. */
async function check(response: Response, what: string) {
  const body = await response.text();
  const key = `${what.split(" ")[0]} ${response.status} ${body.startsWith("{") ? body.slice(0, 60) : ""}`;
  seen[key] = (seen[key] ?? 0) + 1;
  expect(response.status, `${what}: ${body.slice(0, 300)}`).toBeLessThan(500);
  expect(body, what).not.toContain("INTERNAL");
  expect(body.length, what).toBeLessThanOrEqual(ANSWER_CAP);
}

test("pages: random forms and cookies never answer a 5xx, an internal error or an oversized page", async () => {
  await fc.assert(
    fc.asyncProperty(
      pagePaths,
      fc.constantFrom("GET", "POST"),
      form,
      cookies,
      fc.boolean(),
      async (path, method, pairs, cookieHeader, signedIn) => {
        const target = fill(path);
        // the password fields never reach the hash with a valid CSRF token from here: each
        // check costs one scrypt hash, and the sign-in path is fuzzed by its own tests
        const body = new URLSearchParams(pairs.map(([n, v]) => [n, fill(v)]));
        if (target === "/login") body.delete("_csrf");
        const cookie = signedIn ? `orgit_session=${session}; ${cookieHeader}` : cookieHeader;
        const response = await send(app, target, {
          method,
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
          body: method === "POST" ? body.toString() : undefined,
        });
        await check(response, `${method} ${target} ${body}`);
      },
    ),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
});

const FIELDS = [
  "__typename",
  "whoami { user { id role } organization { id name } }",
  "equipments(limit: $n) { data { ...E } pagination { total } }",
  "equipments(limit: 200) { data { ...E } }",
  "tickets { data { id title } }",
  "webhooks { data { id url } }",
  "projects { data { id name } }",
  "__schema { types { name } }",
  '__type(name: "Equipment") { name fields { name } }',
  "...Q",
  "...Missing",
  "equipments { data { ...Big } }",
];
const FRAGMENT = {
  E: "fragment E on Equipment { id name type status }",
  Q: "fragment Q on Query { whoami { user { id } } }",
  Loop: "fragment Loop on Equipment { ...Loop }",
  Big: "fragment Big on Equipment { id id id id id id id id id id }",
};
const rarely = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: value, weight: 1 });
const document = fc
  .record({
    // mostly aliased (the same field twice with other arguments must be)
    fields: fc.array(fc.tuple(fc.constantFrom(...FIELDS), fc.boolean(), fc.boolean()), {
      minLength: 1,
      maxLength: 8,
    }),
    // a valid document mostly; now and then a stray, duplicate or self-spreading fragment
    extra: rarely(fc.constantFrom(...Object.values(FRAGMENT))),
    declares: fc.boolean(),
    mutation: rarely(
      fc.constantFrom(
        'createProject(input: { name: "f" }) { id }',
        'bulkCreateEquipment(input: { items: [{ name: "a", type: "laptop" }] }) { created }',
        "rotateWebhookSecret(id: $id) { id }",
      ),
    ),
  })
  .map(({ fields, extra, declares, mutation }) => {
    let selection = fields
      .map(([f, a, b], i) => ((a || b) && !f.startsWith("...") ? `a${i}: ${f}` : f))
      .join(" ");
    if (!declares) selection = selection.replaceAll("$n", "5");
    const head = declares && selection.includes("$n") ? "query Q1($n: Int)" : "query Q1";
    const mutationHead = mutation?.includes("$id") ? "mutation M($id: ID!)" : "mutation M";
    const operation = mutation ? `${mutationHead} { ${mutation} }` : `${head} { ${selection} }`;
    const used = (["E", "Q", "Big"] as const).filter((name) => operation.includes(`...${name}`));
    return `${operation} ${[...used.map((name) => FRAGMENT[name]), extra ?? ""].join(" ")}`;
  });
const variables = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 2 },
  { arbitrary: fc.record({ n: fc.integer({ min: 1, max: 200 }) }), weight: 4 },
  {
    arbitrary: fc.record({ n: fc.oneof(fc.integer({ min: -5, max: 300 }), text), id: text }),
    weight: 2,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
);

test("graphql: random documents, aliases, fragments and variables never answer a 5xx, an internal error or an oversized answer", async () => {
  await fc.assert(
    fc.asyncProperty(
      document,
      variables,
      fc.constantFrom(0, 0, 0, 1, 2, 3, 4),
      fc.constantFrom("POST", "GET", "GET-raw"),
      rarely(fc.constantFrom("Q1", "M", "nope")),
      async (query, vars, tokenIndex, how, operationName) => {
        const token = tokens[tokenIndex];
        const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        let response: Response;
        if (how === "POST") {
          response = await send(app, "/graphql", {
            method: "POST",
            headers,
            body: { query, variables: vars, operationName },
          });
        } else {
          const params = new URLSearchParams({ query });
          const raw =
            how === "GET-raw" ? String(JSON.stringify(vars)).slice(1) : JSON.stringify(vars);
          if (vars !== undefined) params.set("variables", raw);
          if (operationName) params.set("operationName", operationName);
          response = await send(app, `/graphql?${params}`, { headers });
        }
        await check(response, `${how} ${query} ${JSON.stringify(vars)}`);
      },
    ),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
});
