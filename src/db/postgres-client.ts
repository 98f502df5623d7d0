import { type Logger as DrizzleLogger, sql as drizzleSql } from "drizzle-orm";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Database, DatabaseOptions } from "./database.ts";
import { migratePostgresUrl } from "./migrate.ts";
import { createReadRouting } from "./replicas.ts";
import * as schema from "./schema/index.ts";
import type { Db } from "./types.ts";

interface Identity {
  stats: { queries: number };
  drizzleLogger: DrizzleLogger;
  /** `orgit:<tag>`: names this process's sessions on the server */
  applicationName: string;
  newInstanceId(): string;
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

function connect(
  url: string,
  max: number,
  identity: Identity,
  pooled: boolean,
  onclose?: () => void,
): postgres.Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    ...(onclose ? { onclose } : {}),
    // behind a pooler the pooled sessions are shared by every instance and keep the name of
    // whichever used them last: only the direct LISTEN session names this process
    connection: {
      application_name: pooled ? identity.applicationName.split(":")[0] : identity.applicationName,
    },
    // fail fast while Postgres is unreachable (the default waits 30 s per connection
    // attempt): requests answer 503 and /readyz reports it instead of queueing
    connect_timeout: 5,
    // retry a lost server within a second, not up to 20 s (the default's cap) after a
    // few failed attempts: a blip lasts that long, and each attempt is one TCP connect
    backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
    // a transaction-mode pooler hands each transaction another server session: a statement
    // prepared on one is unknown on the next (docs/operations.md, PgBouncer)
    ...(pooled ? { prepare: false } : {}),
  });
}

function drizzleOver(client: postgres.Sql, identity: Identity): Db {
  return drizzlePostgres({
    client,
    schema,
    casing: "snake_case",
    logger: identity.drizzleLogger,
  }) as unknown as Db;
}

/** Postgres through postgres.js: the primary, its read replicas, and a pooler's direct session. */
export async function openPostgres(
  url: string,
  options: DatabaseOptions,
  identity: Identity,
): Promise<Database> {
  const pooled = options.pooler === "pgbouncer";
  // session-level state (the migrations' advisory lock, LISTEN) needs a session of its own,
  // which a transaction-mode pooler does not keep: it goes straight to Postgres
  const direct = pooled ? (options.directUrl ?? url) : url;
  await migratePostgresUrl(direct);
  let closedAt: number | undefined;
  const noteClose = () => {
    closedAt = Date.now();
  };
  const sql = connect(url, options.poolSize ?? 10, identity, pooled, noteClose);
  const listener = pooled ? connect(direct, 1, identity, false) : sql;
  const statements = (pool: postgres.Sql) => (pooled ? pool : preparedClient(pool));
  const readUrls = options.readUrls ?? [];
  const replicas =
    readUrls.length === 0
      ? undefined
      : createReadRouting(
          sql,
          statements(sql),
          readUrls.map((readUrl) => {
            const open = () => {
              const replica = connect(readUrl, options.poolSize ?? 10, identity, pooled, noteClose);
              return { sql: replica, client: statements(replica) };
            };
            return { ...open(), reopen: open };
          }),
          {
            maxLagMs: options.maxLagMs ?? 5_000,
            probeIntervalMs: options.replicaProbeMs,
            logger: options.logger,
          },
        );
  const primary = drizzleOver(statements(sql), identity);
  const database: Database = {
    db: replicas ? drizzleOver(replicas.client, identity) : primary,
    driver: "postgres",
    stats: identity.stats,
    reads: replicas?.routing,
    async listen(channel, onPayload, onListen) {
      const sub = await listener.listen(channel, onPayload, onListen);
      return () => sub.unlisten();
    },
    async notify(channel, payload) {
      await sql.notify(channel, payload);
    },
    newInstanceId: identity.newInstanceId,
    connectionClosedAt: () => closedAt,
    async liveInstances(ids, on) {
      if (ids.length === 0) return new Set();
      const prefix = identity.applicationName.split(":")[0] as string;
      const tagOf = (id: string) => id.replaceAll("-", "").slice(0, 16);
      const names = [...new Set(ids.map((id) => `${prefix}:${tagOf(id)}`))];
      // application_name is visible to every role, not only to superusers; behind a pooler
      // the LISTEN session (on the direct URL) carries it
      // on the caller's transaction when inside one, else on the primary's pool (never a replica)
      const rows = (await (on ?? primary).execute(drizzleSql`
        select distinct application_name as name from pg_stat_activity
        where datname = current_database()
          and application_name in (${drizzleSql.join(
            names.map((name) => drizzleSql`${name}`),
            drizzleSql`, `,
          )})`)) as unknown as { name: string }[];
      const live = new Set(rows.map((row) => row.name.slice(prefix.length + 1)));
      return new Set(ids.filter((id) => live.has(tagOf(id))));
    },
    async close() {
      await replicas?.routing.stop();
      if (listener !== sql) await listener.end({ timeout: 5 });
      await sql.end({ timeout: 5 });
    },
  };
  await replicas?.routing.start(database.listen);
  return database;
}
