import { PGlite } from "@electric-sql/pglite";
import type { Logger as DrizzleLogger } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { migrateEmbedded, migratePostgresUrl } from "./migrate.ts";
import * as schema from "./schema/index.ts";

/** prefix of every session's application_name, so operators find the service in pg_stat_activity */
const APPLICATION_NAME = "orgit";

const hex = (digits: number) => crypto.randomUUID().replaceAll("-", "").slice(0, digits);

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
  /**
   * A fresh uuid for a component of this process (e.g. its key store) whose first half names
   * this handle's sessions on the server (application_name `orgit:<first 16 hex digits>`),
   * so that `liveInstances` can tell from the id alone whether its process is still there.
   */
  newInstanceId(): string;
  /**
   * Which of these ids (from `newInstanceId`) belong to a process holding a session on the
   * server right now; one that died has none (the kernel closed its sockets). Undefined where
   * the database cannot tell (PGlite, in-process only).
   */
  liveInstances?(ids: string[]): Promise<Set<string>>;
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
  const sessionTag = hex(16);
  const newInstanceId = () => {
    const id = sessionTag + hex(16);
    return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
  };
  if (options.databaseUrl) {
    await migratePostgresUrl(options.databaseUrl);
    const sql = postgres(options.databaseUrl, {
      max: options.poolSize ?? 10,
      onnotice: () => {},
      connection: { application_name: `${APPLICATION_NAME}:${sessionTag}` },
      // fail fast while Postgres is unreachable (the default waits 30 s per connection
      // attempt): requests answer 503 and /readyz reports it instead of queueing
      connect_timeout: 5,
      // retry a lost server within a second, not up to 20 s (the default's cap) after a
      // few failed attempts: a blip lasts that long, and each attempt is one TCP connect
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
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
      newInstanceId,
      async liveInstances(ids) {
        if (ids.length === 0) return new Set();
        const tagOf = (id: string) => id.replaceAll("-", "").slice(0, 16);
        const names = [...new Set(ids.map((id) => `${APPLICATION_NAME}:${tagOf(id)}`))];
        // application_name is visible to every role, not only to superusers
        const rows = await sql<{ name: string }[]>`
          select distinct application_name as name from pg_stat_activity
          where datname = current_database() and application_name = any(${names})`;
        const live = new Set(rows.map((row) => row.name.slice(APPLICATION_NAME.length + 1)));
        return new Set(ids.filter((id) => live.has(tagOf(id))));
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
    newInstanceId,
    close: async () => {
      if (owned) await pg.close();
    },
  };
}
