import { type GraphQLSchema, Kind, parse, validate } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { ReadRouting } from "../db/database.ts";
import { readWithRetry } from "../db/errors.ts";
import { asApiError, validationFailed } from "../errors.ts";
import type { GraphQLContext } from "./context.ts";
import { type Operation, operations } from "./operations.ts";

export class BrokenOperationsError extends Error {}

interface Compiled {
  jit: CompiledQuery;
  /** a query only reads, and so may run again after a lost connection */
  read: boolean;
}

/**
 * Runs the REST routes' GraphQL operations in-process. Every operation is parsed and validated
 * against the schema once, at start-up: a schema change that breaks a route stops the boot (and
 * the tests) instead of failing a live request. Each is then compiled by graphql-jit into a
 * function of its own (the same resolvers, the same schema): graphql-js's `execute` walked the
 * document, collected fields and checked types again on every request, about a quarter of the
 * CPU of a whoami or a tickets page (docs/performance.md). A route names its operation by the
 * generated document itself, so finding it at run time is one lookup by identity.
 */
export class OperationExecutor {
  private readonly compiled = new Map<Operation, Compiled>();

  constructor(
    schema: GraphQLSchema,
    source: readonly Operation[] = operations,
    /** read replicas: queries may run there, a mutation remembers its caller's WAL position */
    private readonly reads?: ReadRouting,
  ) {
    const problems: string[] = [];
    for (const operation of source) {
      const text = operation.toString();
      const name = text.match(/(?:query|mutation)\s+(\w+)/)?.[1] ?? "(anonymous)";
      try {
        const document = parse(text);
        const errors = validate(schema, document);
        if (errors.length > 0) {
          problems.push(`${name}: ${errors.map((e) => e.message).join("; ")}`);
          continue;
        }
        // GraphQL's own scalars and the enums are answered as the resolvers return them, not
        // passed through their serializers again (docs/decisions.md §37): the resolvers return
        // the types the schema says, the REST answers are checked against their schemas, and
        // DateTime (a scalar of ours) is still serialised
        const compiled = compileQuery(schema, document, undefined, {
          disableLeafSerialization: true,
        });
        if (!isCompiledQuery(compiled)) {
          problems.push(`${name}: ${compiled.errors?.map((e) => e.message).join("; ")}`);
          continue;
        }
        const definition = document.definitions[0];
        const read =
          definition?.kind === Kind.OPERATION_DEFINITION && definition.operation === "query";
        this.compiled.set(operation, { jit: compiled, read });
      } catch (error) {
        problems.push(`${name}: ${(error as Error).message}`);
      }
    }
    if (problems.length > 0) {
      throw new BrokenOperationsError(`Invalid GraphQL operations:\n  ${problems.join("\n  ")}`);
    }
  }

  /** Executes a pre-parsed operation; throws the first ApiError (or the unexpected cause). */
  async run<Result, Variables>(
    operation: Operation<Result, Variables>,
    context: GraphQLContext,
    variables?: Variables,
  ): Promise<Result> {
    const compiled = this.compiled.get(operation as Operation);
    if (!compiled) throw new Error(`Operation not compiled at start-up: ${operation.toString()}`);
    const settle = (result: Awaited<ReturnType<CompiledQuery["query"]>>): Result => {
      const errors = result.errors;
      if (errors?.length) {
        // the cause, not its echo: a resolver that failed (a lost connection) also nulls its
        // non-null parents, and those "Cannot return null" errors carry no original error
        const cause =
          errors.find((e) => asApiError(e)) ?? errors.find((e) => e.originalError) ?? errors[0];
        const first = cause as NonNullable<typeof cause>;
        throw asApiError(first) ?? variableError(first) ?? first.originalError ?? first;
      }
      return result.data as Result;
    };
    // settled at once when every resolver answered synchronously (whoami): no promise made
    const run = (): Result | Promise<Result> => {
      const result = compiled.jit.query(
        undefined,
        context,
        variables as Record<string, unknown> | undefined,
      );
      return result instanceof Promise ? result.then(settle) : settle(result);
    };
    const { reads } = this;
    // a read caught in a lost connection runs once more; a mutation never runs twice: its
    // transaction may have committed just before the connection went
    if (!reads) {
      if (!compiled.read) return run();
      let answer: Result | Promise<Result>;
      try {
        answer = run();
      } catch (error) {
        answer = Promise.reject(error); // a lost connection is retried whichever way it came
      }
      return answer instanceof Promise ? readWithRetry(async () => run(), answer) : answer;
    }
    const who = callerOf(context);
    if (compiled.read) return readWithRetry(() => reads.read(who, async () => run()));
    try {
      return await run();
    } finally {
      await reads.wrote(who);
    }
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

/** whose writes a read must see (docs/decisions.md, read replicas): the key, or the person */
export function callerOf(context: {
  principal: { apiKey: { id: string } } | null;
  member: { userId: string } | null;
  operator: boolean;
}): string | undefined {
  if (context.principal) return `key:${context.principal.apiKey.id}`;
  if (context.member) return `user:${context.member.userId}`;
  return context.operator ? "operator" : undefined;
}
