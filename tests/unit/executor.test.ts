import { describe, expect, test } from "bun:test";
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from "graphql";
import { BrokenOperationsError, OperationExecutor } from "../../src/graphql/executor.ts";
import { operations } from "../../src/graphql/operations.ts";
import { buildSchema } from "../../src/graphql/schema.ts";

test("every REST operation parses and validates against the schema", () => {
  expect(() => new OperationExecutor(buildSchema())).not.toThrow();
  expect(Object.keys(operations).length).toBeGreaterThan(0);
});

test("a broken operation fails construction (and so start-up), naming every problem", () => {
  const broken = {
    ...operations,
    Whoami: "query Whoami { whoami { organisation { id } } }",
    Health: "query Health { health { status ",
  } as unknown as typeof operations;
  let error: Error | undefined;
  try {
    new OperationExecutor(buildSchema(), broken);
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
      Health: "query Health { health }",
      Touch: "mutation Touch { touch }",
    } as unknown as typeof operations;
    return { executor: new OperationExecutor(schema, source), calls };
  }
  const run = (executor: OperationExecutor, name: string) =>
    executor.run<Record<string, string>>(name as never, {} as never);

  test("a read runs once more on a fresh connection and answers", async () => {
    const { executor, calls } = flaky(1);
    expect(await run(executor, "Health")).toEqual({ health: "ok" });
    expect(calls.query).toBe(2);
  });

  test("a read that loses its connection twice fails with the connection error", async () => {
    const { executor, calls } = flaky(2);
    await expect(run(executor, "Health")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(calls.query).toBe(2);
  });

  test("a mutation never runs twice: it may have committed", async () => {
    const { executor, calls } = flaky(1);
    await expect(run(executor, "Touch")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    expect(calls.mutation).toBe(1);
  });

  test("other failures of a read are not repeated", async () => {
    const { executor, calls } = flaky(1, () => new Error("boom"));
    await expect(run(executor, "Health")).rejects.toThrow("boom");
    expect(calls.query).toBe(1);
  });
});
