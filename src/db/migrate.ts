import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

const migrationsFolder = decodeURIComponent(new URL("../../drizzle", import.meta.url).pathname);
/** arbitrary constant: serialises migrations when several instances start at once */
const MIGRATION_LOCK = 742_113_901;

/** Applies drizzle/ migrations on a Postgres server, holding an advisory lock meanwhile. */
export async function migratePostgresUrl(databaseUrl: string): Promise<void> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres({ client: sql }), { migrationsFolder });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function migrateEmbedded(pg: PGlite): Promise<void> {
  await migratePglite(drizzlePglite({ client: pg }), { migrationsFolder });
}
