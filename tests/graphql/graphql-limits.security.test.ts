import { expect, test } from "bun:test";
import { GRAPHQL_LIMITS } from "../../src/graphql/limits.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";

const aliases = (n: number, field: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("2,000 aliases of an introspection query are refused at parse time, with a 400", async () => {
    const { key } = await make.member({ role: "technician" });
    const { response, json } = await graphql(
      app,
      key,
      aliases(2_000, "__schema { types { name fields { name } } }"),
    );
    expect(response.status, "a client error, not a 93 MB answer").toBe(400);
    expect(json.data, "nothing was executed").toBeUndefined();
    expect(json.errors?.[0]?.message).toContain("Token limit");
  });

  test("more aliases than allowed are refused with a clear GraphQL error", async () => {
    const { key } = await make.member({ role: "technician" });
    const { response, json } = await graphql(app, key, aliases(20, "whoami { user { id } }"));
    expect(response.status).toBe(400);
    expect(json.errors?.[0]?.message).toContain("Aliases limit");
  });

  test("introspection is counted: a few aliased __schema are over the cost limit", async () => {
    const { key } = await make.member({ role: "technician" });
    const { response, json } = await graphql(app, key, aliases(6, "__schema { types { name } }"));
    expect(response.status).toBe(400);
    expect(json.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(json.data).toBeUndefined();
  });

  test("100 aliases of equipments(limit: 200) are refused before any SQL runs", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    await graphql(app, key, "{ whoami { user { id } } }"); // the key is looked up and cached
    const before = db.database.stats.queries;
    const { response, json } = await graphql(
      app,
      key,
      aliases(100, "equipments(limit: 200) { data { id } }"),
    );
    expect(response.status).toBe(400);
    expect(json.errors?.[0]?.message ?? "").toMatch(/Aliases limit|cost/i);
    expect(db.database.stats.queries - before, "no page was read").toBe(0);
  });

  test("cost multiplies a list field by its page size, also when given as a variable", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    const query = `query($n: Int) { ${Array.from(
      { length: 10 },
      (_, i) => `a${i}: equipments(limit: $n) { data { id name type platform status } }`,
    ).join(" ")} }`;
    const big = await graphql(app, key, query, { n: 200 });
    expect(big.response.status).toBe(400);
    expect(big.json.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    // the same document with small pages is fine (the check is not cached by document)
    const small = await graphql(app, key, query, { n: 5 });
    expect(small.response.status).toBe(200);
    expect(small.json.errors).toBeUndefined();
    expect(small.json.data.a0.data).toEqual([]);
  });

  test("normal queries still work: one full page, the standard introspection query", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    const page = await graphql(
      app,
      key,
      "{ equipments(limit: 200) { pagination { total } data { id name type platform location unitId status createdAt } } whoami { user { id } } }",
    );
    expect(page.response.status).toBe(200);
    expect(page.json.errors).toBeUndefined();
    const { getIntrospectionQuery } = await import("graphql");
    const schema = await graphql(app, key, getIntrospectionQuery());
    expect(schema.response.status).toBe(200);
    expect(schema.json.data.__schema.types.length).toBeGreaterThan(10);
    const operator = await graphql(app, TEST_ADMIN_TOKEN, "{ __typename }");
    expect(operator.json.errors).toBeUndefined();
  });

  test("a body that is not JSON answers 415 with the flat error body", async () => {
    const { key } = await make.member();
    const response = await send(app, "/graphql", {
      method: "POST",
      key,
      headers: { "content-type": "text/plain" },
      body: "{ whoami { user { id } } }",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: "Send the body as JSON with Content-Type: application/json",
    });
  });

  test("a transport refusal of Yoga's (406) gets a JSON body instead of an empty one", async () => {
    const { key } = await make.member();
    const response = await send(app, "/graphql", {
      method: "POST",
      key,
      headers: { accept: "text/xml" },
      body: { query: "{ __typename }" },
    });
    expect(response.status).toBe(406);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({ error: "Not Acceptable" });
  });

  test("the limits are the documented ones", () => {
    expect(GRAPHQL_LIMITS).toMatchObject({ maxTokens: 2_000, maxAliases: 15, maxCost: 10_000 });
  });
}

describeEachDriver("graphql limits (security)", suite);
