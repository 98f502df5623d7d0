import { PGlite } from "@electric-sql/pglite";
import type { Logger as DrizzleLogger } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import type { Database, DatabaseOptions } from "./database.ts";
import { migrateEmbedded } from "./migrate.ts";
import { openPostgres } from "./postgres-client.ts";
import * as schema from "./schema/index.ts";
import type { Db, Executor, Schema, Tx } from "./types.ts";

/** prefix of every session's application_name, so operators find the service in pg_stat_activity */
const APPLICATION_NAME = "orgit";

const hex = (digits: number) => crypto.randomUUID().replaceAll("-", "").slice(0, digits);

export type { Database, DatabaseOptions, Db, Executor, Schema, Tx };

function countingLogger(stats: { queries: number }): DrizzleLogger {
  return {
    logQuery() {
      stats.queries++;
    },
  };
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
    return openPostgres(options.databaseUrl, options, {
      stats,
      drizzleLogger: logger,
      applicationName: `${APPLICATION_NAME}:${sessionTag}`,
      newInstanceId,
    });
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
