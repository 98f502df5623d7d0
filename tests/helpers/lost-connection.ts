import type { Database } from "../../src/db/client.ts";

/**
 * The same database behind a handle that can replay a lost connection as the service saw it
 * before patch 7 of patches/postgres+3.4.9.patch: a pooled connection closes
 * (`connectionClosedAt` says when), and the next read from `table` answers no row although the
 * row is there, as postgres.js's mix-up did on the statements after a lost session. Every other
 * statement runs as usual.
 */
export function withLostConnection(database: Database, table: unknown) {
  let closedAt: number | undefined;
  let wrongAnswers = 0;
  const db = new Proxy(database.db, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (prop !== "select") return typeof value === "function" ? value.bind(target) : value;
      return (...args: unknown[]) => {
        // biome-ignore lint/suspicious/noExplicitAny: Drizzle's builders, driven generically
        const builder = (target.select as any)(...args);
        return new Proxy(builder, {
          get(inner, key) {
            const member = Reflect.get(inner, key);
            if (key !== "from") return typeof member === "function" ? member.bind(inner) : member;
            return (source: unknown, ...rest: unknown[]) => {
              const query = member.call(inner, source, ...rest);
              if (wrongAnswers > 0 && source === table) {
                wrongAnswers--;
                // the statement is never sent; awaiting the query gives no rows
                query.execute = async () => [];
              }
              return query;
            };
          },
        });
      };
    },
  });
  return {
    database: { ...database, db, connectionClosedAt: () => closedAt } satisfies Database,
    /** a connection closes now (or `at`); with `wrongAnswer`, the next read of `table` answers no row */
    lose({ at = Date.now(), wrongAnswer = true }: { at?: number; wrongAnswer?: boolean } = {}) {
      closedAt = at;
      if (wrongAnswer) wrongAnswers++;
    },
    /** the next read of `table` answers no row, with no connection lost */
    answerWrongly() {
      wrongAnswers++;
    },
  };
}
