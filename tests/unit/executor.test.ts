import { describe, expect, test } from "bun:test";
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from "graphql";
import { FEATURE_RESOLVERS } from "../../src/features.ts";
import {
  HealthDocument,
  TypedDocumentString,
  WhoamiDocument,
} from "../../src/generated/graphql.ts";
import { BrokenOperationsError, OperationExecutor } from "../../src/graphql/executor.ts";
import { type Operation, operations } from "../../src/graphql/operations.ts";
import { buildSchema } from "../../src/graphql/schema.ts";

test("every REST operation parses and validates against the schema", () => {
  expect(() => new OperationExecutor(buildSchema(FEATURE_RESOLVERS))).not.toThrow();
  expect(operations.length).toBeGreaterThan(0);
  expect(operations, "generated documents are found").toContain(WhoamiDocument as Operation);
});

test("a broken operation fails construction (and so start-up), naming every problem", () => {
  const document = (text: string) => new TypedDocumentString(text) as Operation;
  const broken = [
    ...operations.filter((o) => o !== WhoamiDocument && o !== HealthDocument),
    document("query Whoami { whoami { organisation { id } } }"),
    document("query Health { health { status "),
  ];
  let error: Error | undefined;
  try {
    new OperationExecutor(buildSchema(FEATURE_RESOLVERS), broken);
  } catch (e) {
    error = e as Error;
  }
  expect(error).toBeInstanceOf(BrokenOperationsError);
  expect(error?.message).toContain('Whoami: Cannot query field "organisation"');
  expect(error?.message).toContain("Health: Syntax Error");
});

describe("a lost database connection", () => {
  const lost = () =>
    Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), {
      code: "CONNECTION_CLOSED",
    });
  /** a schema whose resolvers fail with `failure()` the first `failures` times they run */
  function flaky(failures: number, failure: () => Error = lost) {
    const calls = { query: 0, mutation: 0 };
    const field = (kind: keyof typeof calls) => ({
      type: GraphQLString,
      resolve: () => {
        calls[kind]++;
        if (calls[kind] <= failures) throw failure();
        return "ok";
      },
    });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: "Query", fields: { health: field("query") } }),
      mutation: new GraphQLObjectType({ name: "Mutation", fields: { touch: field("mutation") } }),
    });
    const source = {
      Health: new TypedDocumentString("query Health { health }") as Operation,
      Touch: new TypedDocumentString("mutation Touch { touch }") as Operation,
    };
    return { executor: new OperationExecutor(schema, Object.values(source)), calls, source };
  }
  const run = ({ executor, source }: ReturnType<typeof flaky>, name: "Health" | "Touch") =>
    executor.run(source[name], {} as never);

  test("a read runs once more on a fresh connection and answers", async () => {
    const setup = flaky(1);
    const { calls } = setup;
    expect(await run(setup, "Health")).toEqual({ health: "ok" });
    expect(calls.query).toBe(2);
  });

  test("a read that loses its connection twice fails with the connection error", async () => {
    const setup = flaky(2);
    const { calls } = setup;
    await expect(run(setup, "Health")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(calls.query).toBe(2);
  });

  test("a mutation never runs twice: it may have committed", async () => {
    const setup = flaky(1);
    const { calls } = setup;
    await expect(run(setup, "Touch")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(calls.mutation).toBe(1);
  });

  test("other failures of a read are not repeated", async () => {
    const setup = flaky(1, () => new Error("boom"));
    const { calls } = setup;
    await expect(run(setup, "Health")).rejects.toThrow("boom");
    expect(calls.query).toBe(1);
  });
});
