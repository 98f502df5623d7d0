import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  OperationTypeNode,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { Plugin } from "graphql-yoga";

type Execute = (args: ExecutionArgs) => ExecutionResult | Promise<ExecutionResult>;

/**
 * `/graphql` runs a query it has seen before as graphql-jit code, as the REST routes' operations
 * are compiled at boot: a dashboard's repeated query then skips graphql-js's walk of the
 * document on every request (docs/decisions.md, "/graphql compiles what it has seen before").
 *
 * - Compiled from a document's second execution on: a one-off document costs what it cost
 *   before, and a caller sending ever new documents cannot make the service compile each one.
 * - Kept per parsed document object and operation name. Yoga's parser cache hands out one object
 *   per document text (an LRU of 1,024 texts, an hour at most), so compiled code lives and dies
 *   with that entry: the cache is bounded by Yoga's.
 * - Queries only. A compiled answer with errors is answered again by Yoga's own executor,
 *   because graphql-jit words errors differently (no `locations`); a query only reads, so
 *   running it twice changes nothing. Mutations and subscriptions always run on Yoga's.
 */
export function compileRepeatedDocuments(
  /** a compiled query answered without an error (repeated-queries.ts remembers it) */
  answered?: (
    document: DocumentNode,
    operationName: string | undefined,
    compiled: CompiledQuery,
  ) => void,
): Plugin {
  const seen = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

  /** the compiled query for this execution, once it is due; null: never compile it */
  function compiledFor(args: ExecutionArgs): CompiledQuery | null | undefined {
    const name = args.operationName ?? "";
    let byName = seen.get(args.document);
    if (!byName) {
      byName = new Map();
      seen.set(args.document, byName);
    }
    if (!byName.has(name)) {
      byName.set(name, undefined as unknown as null); // seen once: compile next time
      return undefined;
    }
    const known = byName.get(name);
    if (known !== undefined) return known;
    const operation = getOperationAST(args.document, args.operationName);
    let compiled: CompiledQuery | null = null;
    if (operation?.operation === OperationTypeNode.QUERY) {
      // the built-in scalars and the enums as resolved, as the REST operations are compiled
      // (docs/decisions.md §37): the first, interpreted answer and the compiled ones agree
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined, {
        disableLeafSerialization: true,
      });
      compiled = isCompiledQuery(result) ? result : null;
    }
    byName.set(name, compiled);
    return compiled;
  }

  /** `interpret` is the executor Yoga would have used: the answer of record */
  const run = (args: ExecutionArgs, interpret: Execute) => {
    const compiled = compiledFor(args);
    if (!compiled) return interpret(args);
    const answer = compiled.query(args.rootValue, args.contextValue, args.variableValues);
    const settle = (result: ExecutionResult) => {
      if (result.errors) return interpret(args);
      answered?.(args.document, args.operationName ?? undefined, compiled);
      return result;
    };
    return answer instanceof Promise ? answer.then(settle) : settle(answer);
  };

  return {
    onExecute({ executeFn, setExecuteFn }) {
      const interpret = executeFn as Execute;
      setExecuteFn(((args: ExecutionArgs) => run(args, interpret)) as typeof executeFn);
    },
  };
}
