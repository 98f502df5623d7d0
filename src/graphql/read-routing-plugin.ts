import { type ExecutionResult, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { ReadRouting } from "../db/database.ts";
import { databaseUnavailableCode } from "../db/errors.ts";
import type { GraphQLContext } from "./context.ts";
import { callerOf } from "./executor.ts";

/** the cause of the first error in an answer when it is a lost or refused connection */
function unavailableCause(result: unknown): unknown {
  const errors = (result as ExecutionResult | undefined)?.errors ?? [];
  return errors.map((e) => e.originalError).find((cause) => databaseUnavailableCode(cause));
}

/**
 * /graphql's queries run where the REST routes' read operations do (`ReadRouting.read`): on a
 * healthy replica that has replayed the caller's writes; a mutation remembers the caller's WAL
 * position. A replica lost under a query is marked down and the query runs again on the primary.
 */
export function readRoutingPlugin(reads: ReadRouting | undefined): Plugin[] {
  if (!reads) return [];
  return [
    {
      onExecute({ args, executeFn, setExecuteFn }) {
        const kind = getOperationAST(args.document, args.operationName)?.operation;
        const who = callerOf(args.contextValue as unknown as GraphQLContext);
        if (kind === "query") {
          setExecuteFn((execution) => {
            let attempt = 0;
            return reads.read(who, async () => {
              const result = await executeFn(execution);
              const cause = attempt++ === 0 ? unavailableCause(result) : undefined;
              if (cause) throw cause;
              return result;
            });
          });
        } else if (kind === "mutation") {
          setExecuteFn(async (execution) => {
            try {
              return await executeFn(execution);
            } finally {
              await reads.wrote(who);
            }
          });
        }
      },
    },
  ];
}
