import { expect, test } from "bun:test";
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
