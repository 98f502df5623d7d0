import { PGlite } from "@electric-sql/pglite";
import type { Logger as DrizzleLogger } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { migrateEmbedded, migratePostgresUrl } from "./migrate.ts";
import * as schema from "./schema/index.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  driver: "pglite" | "postgres";
  /** number of statements sent through Drizzle since start; tests use it to prove N+1 freedom */
  readonly stats: { queries: number };
  /**
   * Subscribes to a Postgres notification channel; resolves once the LISTEN is active.
   * `onListen` runs each time the subscription is (re)established: notifications sent while
   * the connection was down are lost, so callers drop what they cached.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** connection pool size for postgres.js */
  poolSize?: number;
  /** an existing PGlite to share (tests run two app instances over one embedded database) */
  pglite?: PGlite;
}

function countingLogger(stats: { queries: number }): DrizzleLogger {
  return {
    logQuery() {
      stats.queries++;
    },
  };
}

/**
 * Drizzle's postgres.js session sends every query with `prepare: false` unless it was given a
 * name. Wrapping the client makes postgres.js prepare (and cache per connection) every
 * parameterised statement, including inside transactions and reserved connections.
 */
export function preparedClient(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop === "unsafe") {
        return (query: string, params?: unknown[], options?: { prepare?: boolean }) =>
          // biome-ignore lint/suspicious/noExplicitAny: postgres.js ParameterOrJSON typing
          target.unsafe(query, params as any, { ...options, prepare: true });
      }
      if (prop === "begin") {
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: postgres.Sql) => unknown;
          // biome-ignore lint/suspicious/noExplicitAny: forwards the optional isolation string
          return (target.begin as any)(...args, (tx: postgres.Sql) => callback(preparedClient(tx)));
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Opens the database and applies pending migrations (start-up; safe to run concurrently). */
export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const stats = { queries: 0 };
  const logger = countingLogger(stats);
  if (options.databaseUrl) {
    await migratePostgresUrl(options.databaseUrl);
    const sql = postgres(options.databaseUrl, {
      max: options.poolSize ?? 10,
      onnotice: () => {},
      connection: { application_name: "orgit" },
    });
    const db = drizzlePostgres({
      client: preparedClient(sql),
      schema,
      casing: "snake_case",
      logger,
    });
    return {
      db: db as unknown as Db,
      driver: "postgres",
      stats,
      async listen(channel, onPayload, onListen) {
        const sub = await sql.listen(channel, onPayload, onListen);
        return () => sub.unlisten();
      },
      async notify(channel, payload) {
        await sql.notify(channel, payload);
      },
      close: () => sql.end({ timeout: 5 }),
    };
  }
  const owned = !options.pglite;
  const pg = options.pglite ?? new PGlite(options.dataDir);
  await pg.waitReady;
  await migrateEmbedded(pg);
  const db = drizzlePglite({ client: pg, schema, casing: "snake_case", logger });
  return {
    db: db as unknown as Db,
    driver: "pglite",
    stats,
    async listen(channel, onPayload, onListen) {
      const unlisten = await pg.listen(channel, onPayload);
      onListen?.();
      return unlisten;
    },
    async notify(channel, payload) {
      await pg.query("select pg_notify($1, $2)", [channel, payload]);
    },
    close: async () => {
      if (owned) await pg.close();
    },
  };
}
