import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { pgErrorCode } from "./errors.ts";
import type { Executor } from "./types.ts";

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

let newestMigration: number | undefined;

/**
 * True when the newest migration in drizzle/ is recorded as applied (Drizzle's own bookkeeping
 * table, as the migrators write it). False when it is not or the table does not exist yet;
 * throws when the database does not answer.
 */
export async function migrationsApplied(db: Executor): Promise<boolean> {
  newestMigration ??= Math.max(
    0,
    ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis),
  );
  try {
    const result = await db.execute(
      sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
    );
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
      newest: string | number | null;
    }[];
    return Number(rows[0]?.newest ?? 0) >= newestMigration;
  } catch (error) {
    // undefined_table / invalid_schema_name: never migrated
    const code = pgErrorCode(error);
    if (code === "42P01" || code === "3F000") return false;
    throw error;
  }
}
