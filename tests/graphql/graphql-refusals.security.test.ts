import { expect, test } from "bun:test";
import { equipment } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";

/**
 * Documents the cost check cannot measure, bad JSON in a GET's parameters and bulk writes
 * multiplied by aliases are all refused with a 400 in GraphQL's error format, before anything
 * runs (docs/security.md, "GraphQL limits").
 */
function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];
  const { app, db, make } = useTestApp(driver, { logs });

  test("a document too large to cost (100 spreads of a 100-field fragment in 14 aliases) is refused, never run unchecked", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    await graphql(app, key, "{ whoami { user { id } } }"); // the key is looked up and cached
    // 100 spreads of a 100-field fragment: 10,000 fields per alias after expansion, in a few
    // hundred tokens, past the cost library's node cap
    const spreads = Array.from({ length: 100 }, () => "...F").join(" ");
    const fields = Array.from({ length: 100 }, () => "id").join(" ");
    const aliases = Array.from(
      { length: 14 },
      (_, i) => `a${i}: equipments(limit: 200) { data { ...G } }`,
    ).join(" ");
    const before = db.database.stats.queries;
    const { response, json } = await graphql(
      app,
      key,
      `{ ${aliases} } fragment G on Equipment { ${spreads} } fragment F on Equipment { ${fields} }`,
    );
    expect(response.status).toBe(400);
    expect(json.data, "nothing was executed").toBeUndefined();
    expect(json.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(json.errors?.[0]?.message).toContain("too large to measure");
    expect(db.database.stats.queries - before, "no page was read").toBe(0);
  });

  test("a document run before (compiled) is costed again with each request's variables", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    const query = `query($n: Int) { ${Array.from(
      { length: 10 },
      (_, i) => `a${i}: equipments(limit: $n) { data { id name type platform status } }`,
    ).join(" ")} }`;
    for (let i = 0; i < 3; i++) {
      expect((await graphql(app, key, query, { n: 5 })).response.status, `small ${i}`).toBe(200);
    }
    const big = await graphql(app, key, query, { n: 200 });
    expect(big.response.status).toBe(400);
    expect(big.json.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
  });

  test("variables that do not coerce still get GraphQL's own words, not a cost refusal", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    const { response, json } = await graphql(
      app,
      key,
      "query($n: Int) { equipments(limit: $n) { data { id } } }",
      { n: "many" },
    );
    expect(response.status).toBe(400);
    expect(json.errors?.[0]?.message).toContain('Variable "$n" got invalid value');
    expect(json.errors?.[0]?.extensions?.code).not.toBe("COST_LIMIT");
  });

  for (const [name, param] of [
    ["variables", "variables=%7Bnot%20json"],
    ["extensions", "extensions=%7B%22a%22%3A"],
  ] as const) {
    test(`bad JSON in a GET's ${name} is a 400 with a clear message, no INTERNAL error, no stack logged`, async () => {
      const { key } = await make.member({ scopes: ["equipment:read"] });
      logs.length = 0;
      const response = await send(app, `/graphql?query=%7B__typename%7D&${param}`, { key });
      expect(response.status).toBe(400);
      const json = (await response.json()) as {
        errors?: { message: string; extensions?: { code?: string } }[];
      };
      expect(json.errors?.[0]?.message).toBe(`The ${name} parameter is not valid JSON`);
      expect(json.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");
      expect(logs.filter((line) => line.level === "error" || "stack" in line)).toEqual([]);
    });
  }

  test("15 aliases of a 100-item bulk creation are refused and write nothing; one is fine", async () => {
    const { key, organizationId } = await make.member({
      scopes: ["equipment:write", "equipment:read"],
    });
    const items = {
      items: Array.from({ length: 100 }, (_, n) => ({ name: `b-${n}`, type: "laptop" })),
    };
    const bulk = (alias: string) => `${alias}: bulkCreateEquipment(input: $i) { created }`;
    const aliased = (n: number) =>
      `mutation($i: BulkCreateEquipmentInput!) { ${Array.from({ length: n }, (_, a) => bulk(`b${a}`)).join(" ")} }`;
    const refused = await graphql(app, key, aliased(15), { i: items });
    expect(refused.response.status).toBe(400);
    expect(refused.json.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(refused.json.data).toBeUndefined();
    const rows = await db.database.db.select().from(equipment);
    expect(
      rows.filter((r) => r.organizationId === organizationId),
      "nothing written",
    ).toEqual([]);
    const two = await graphql(app, key, aliased(2), { i: items });
    expect(two.response.status, "two full bulks in one request are over the cost too").toBe(400);
    const inline = Array.from({ length: 30 }, (_, n) => `{ name: "i-${n}", type: "laptop" }`).join(
      ", ",
    );
    const literal = await graphql(
      app,
      key,
      `mutation { ${Array.from({ length: 15 }, (_, a) => `b${a}: bulkCreateEquipment(input: { items: [${inline}] }) { created }`).join(" ")} }`,
    );
    expect(literal.response.status, "list sizes written in the document count the same").toBe(400);
    expect(
      (await db.database.db.select().from(equipment)).filter(
        (r) => r.organizationId === organizationId,
      ),
    ).toEqual([]);
    const one = await graphql(app, key, aliased(1), { i: items });
    expect(one.response.status).toBe(200);
    expect(one.json.data.b0.created).toBe(100);
  });
}

describeEachDriver("graphql refusals (security)", suite);
