import { expect, test } from "bun:test";
import { buildSchema, type ExecutionArgs, execute, parse } from "graphql";
import { compileRepeatedDocuments } from "../../src/graphql/repeat-compiler.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * `/graphql` compiles a document from its second request on (docs/decisions.md): the answers
 * stay exactly what graphql-js answered the first time, data, errors and all.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  const post = async (key: string, body: Record<string, unknown>) => {
    const response = await send(app, "/graphql", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body,
    });
    return { status: response.status, text: await response.text() };
  };

  test("a repeated query with fragments, aliases and variables answers the same text every time", async () => {
    const { key } = await make.member({
      role: "technician",
      scopes: ["tickets:read", "tickets:write"],
    });
    for (let i = 0; i < 3; i++) {
      await post(key, {
        query:
          'mutation { createTicket(input: { title: "Printer", description: "It jams on every page." }) { id } }',
      });
    }
    const body = {
      query: `query Board($limit: Int!, $status: TicketStatus) {
        open: tickets(limit: $limit, status: $status) { ...Row pagination { total limit offset } }
        all: tickets(limit: 2) { ...Row }
        whoami { organization { name } user { role } }
      }
      fragment Row on TicketPage { data { id title status priority } }`,
      variables: { limit: 2, status: "open" },
    };
    const first = await post(key, body);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).data.open.pagination.total).toBe(3);
    for (let i = 0; i < 3; i++)
      expect(await post(key, body), "compiled = interpreted").toEqual(first);
  });

  test("a repeated query that fails in a resolver answers the same error every time", async () => {
    const { key } = await make.member({
      role: "technician",
      scopes: ["tickets:read", "tickets:write"],
    });
    const body = { query: "{ tickets(limit: 201) { data { id } } }" };
    const first = await post(key, body);
    const again = [await post(key, body), await post(key, body)];
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text).errors?.[0]?.message).toBeString();
    for (const later of again) expect(later).toEqual(first);
  });

  test("a document with two operations runs the one named, on every request", async () => {
    const { key } = await make.member({
      role: "technician",
      scopes: ["tickets:read", "tickets:write"],
    });
    const query =
      "query Me { whoami { user { role } } } query Count { tickets(limit: 1) { pagination { total } } }";
    for (let i = 0; i < 3; i++) {
      const me = JSON.parse((await post(key, { query, operationName: "Me" })).text);
      const count = JSON.parse((await post(key, { query, operationName: "Count" })).text);
      expect(me.data, `round ${i}`).toEqual({ whoami: { user: { role: "technician" } } });
      expect(Object.keys(count.data), `round ${i}`).toEqual(["tickets"]);
    }
  });
}

describeEachDriver("GraphQL documents compiled on repeat", suite);

test("the compiler takes a query from its second execution on; mutations and errors stay interpreted", async () => {
  const schema = buildSchema(
    "type Query { hello: String, broken: String } type Mutation { bump: Int }",
  );
  let bumps = 0;
  const resolvers: Record<string, () => unknown> = {
    hello: () => "world",
    broken: () => {
      throw new Error("no");
    },
    bump: () => ++bumps,
  };
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {}))
      field.resolve = resolvers[field.name];
  }
  const rootValue = {};
  const plugin = compileRepeatedDocuments();
  let interpreted = 0;
  let executeFn: (args: ExecutionArgs) => unknown = () => undefined;
  plugin.onExecute?.({
    executeFn: (args: ExecutionArgs) => {
      interpreted++;
      return execute(args);
    },
    setExecuteFn: (fn: (args: ExecutionArgs) => unknown) => {
      executeFn = fn;
    },
  } as never);
  const runs = async (source: string, times: number) => {
    const document = parse(source);
    const before = interpreted;
    const answers = [];
    for (let i = 0; i < times; i++) answers.push(await executeFn({ schema, document, rootValue }));
    return { interpreted: interpreted - before, answers };
  };
  const query = await runs("{ hello }", 3);
  expect(query.interpreted, "only the first execution is interpreted").toBe(1);
  expect(query.answers).toEqual([
    { data: { hello: "world" } },
    { data: { hello: "world" } },
    { data: { hello: "world" } },
  ]);
  const failing = await runs("{ broken }", 3);
  expect(failing.interpreted, "an answer with errors is the interpreter's, every time").toBe(3);
  const mutation = await runs("mutation { bump }", 3);
  expect(mutation.interpreted, "mutations always interpreted").toBe(3);
  expect(bumps, "and run once each").toBe(3);
});
