import { type GraphQLSchema, Kind, parse, validate } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { readWithRetry } from "../db/errors.ts";
import { asApiError, validationFailed } from "../errors.ts";
import type { GraphQLContext } from "./context.ts";
import { operations } from "./operations.ts";

export type OperationName = keyof typeof operations;

export class BrokenOperationsError extends Error {}

/**
 * Runs the REST routes' GraphQL operations in-process. Every operation is parsed and validated
 * against the schema once, at start-up: a schema change that breaks a route stops the boot (and
 * the tests) instead of failing a live request. Each is then compiled by graphql-jit into a
 * function of its own (the same resolvers, the same schema): graphql-js's `execute` walked the
 * document, collected fields and checked types again on every request, about a quarter of the
 * CPU of a whoami or a tickets page (docs/performance.md).
 */
export class OperationExecutor {
  private readonly compiled = new Map<OperationName, CompiledQuery>();
  /** operations that only read, and so may run again after a lost connection */
  private readonly reads = new Set<OperationName>();

  constructor(schema: GraphQLSchema, source: Record<OperationName, string> = operations) {
    const problems: string[] = [];
    for (const [name, text] of Object.entries(source) as [OperationName, string][]) {
      try {
        const document = parse(text);
        const errors = validate(schema, document);
        if (errors.length > 0) {
          problems.push(`${name}: ${errors.map((e) => e.message).join("; ")}`);
          continue;
        }
        const compiled = compileQuery(schema, document);
        if (!isCompiledQuery(compiled)) {
          problems.push(`${name}: ${compiled.errors?.map((e) => e.message).join("; ")}`);
          continue;
        }
        this.compiled.set(name, compiled);
        const definition = document.definitions[0];
        if (definition?.kind === Kind.OPERATION_DEFINITION && definition.operation === "query") {
          this.reads.add(name);
        }
      } catch (error) {
        problems.push(`${name}: ${(error as Error).message}`);
      }
    }
    if (problems.length > 0) {
      throw new BrokenOperationsError(`Invalid GraphQL operations:\n  ${problems.join("\n  ")}`);
    }
  }

  /** Executes a pre-parsed operation; throws the first ApiError (or the unexpected cause). */
  async run<T>(
    name: OperationName,
    context: GraphQLContext,
    variables?: Record<string, unknown>,
  ): Promise<T> {
    const compiled = this.compiled.get(name) as CompiledQuery;
    const run = async () => {
      const result = await compiled.query(undefined, context, variables);
      const first = result.errors?.[0];
      if (first) throw asApiError(first) ?? variableError(first) ?? first.originalError ?? first;
      return result.data as T;
    };
    // a read caught in a lost connection runs once more; a mutation never runs twice: its
    // transaction may have committed just before the connection went
    return this.reads.has(name) ? readWithRetry(run) : run();
  }
}

/**
 * A variable GraphQL refused before any resolver ran (e.g. an offset beyond 32-bit Int) is the
 * caller's input being wrong: a 400 naming the field, never a 500.
 */
function variableError(error: { message: string; path?: readonly unknown[] }) {
  const match = error.path ? null : error.message.match(/^Variable "\$(\w+)" got invalid value/);
  if (!match) return undefined;
  const detail = error.message.split("; ").slice(1).join("; ") || "Invalid value";
  return validationFailed([{ path: [match[1] as string], message: detail }]);
}
