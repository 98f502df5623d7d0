import type postgres from "postgres";

/** a statement a replica can answer: a plain read, no row locks, no side effects */
export function replicaSafe(statement: string): boolean {
  return (
    /^\s*select\b/i.test(statement) &&
    !/\bfor\s+(no\s+key\s+)?(update|share)\b|\bfor\s+key\s+share\b/i.test(statement) &&
    !/\b(pg_notify|nextval|setval|pg_advisory\w*|pg_current_wal\w*)\s*\(/i.test(statement)
  );
}

/**
 * The client Drizzle runs on when there are replicas: each statement goes, when it runs, to the
 * replica `current` names (the request's, inside `ReadRouting.read`) if it is replica-safe,
 * else to the primary. Transactions run on a client postgres.js hands them: the primary's.
 */
export function routedClient(
  primary: postgres.Sql,
  current: () => postgres.Sql | undefined,
): postgres.Sql {
  return new Proxy(primary, {
    get(target, prop, receiver) {
      if (prop !== "unsafe") {
        const value = Reflect.get(target, prop, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return (statement: string, ...rest: unknown[]) => {
        const chosen = current();
        const on = chosen && replicaSafe(statement) ? chosen : target;
        // biome-ignore lint/suspicious/noExplicitAny: forwards postgres.js's own arguments
        return (on.unsafe as any)(statement, ...rest);
      };
    },
  });
}
