import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createDatabase, type Database } from "../../src/db/client.ts";

/**
 * An in-memory PGlite with the schema, started from a data directory saved once per set of
 * migrations and UTC day (in the OS temp directory) instead of running initdb and every
 * migration: 3–4× faster, and it is what `freshDatabase` gives every suite (docs/testing.md).
 * The saved directory is made by the real migrations; the migration suites
 * (tests/platform/*migration*, day-partitions) run them on empty databases of their own.
 */
const DRIZZLE = decodeURIComponent(new URL("../../drizzle", import.meta.url).pathname);

/** A digest of the migrations and the UTC day (what a migration creates "ahead" is dated). */
export function migrationsDigest(): string {
  const hash = createHash("sha256");
  hash.update(new Date().toISOString().slice(0, 10));
  const pglite = JSON.parse(
    readFileSync(join(DRIZZLE, "../node_modules/@electric-sql/pglite/package.json"), "utf8"),
  ) as { version: string };
  hash.update(pglite.version);
  for (const name of readdirSync(DRIZZLE).sort()) {
    if (name.endsWith(".sql")) hash.update(name).update(readFileSync(join(DRIZZLE, name)));
  }
  hash.update(readFileSync(join(DRIZZLE, "meta/_journal.json")));
  return hash.digest("hex").slice(0, 16);
}

function snapshotFile(): string {
  return join(tmpdir(), `orgit-pglite-${migrationsDigest()}.tar`);
}

/**
 * PGlite's own start parameters with 16 MB of shared buffers instead of Postgres's 128 MB: a
 * suite's database holds a few hundred rows, and starting with the larger pool cost about
 * 0.8 s of CPU an instance more on a slow machine, most of it the kernel's page faults
 * (docs/testing.md). The service's embedded database keeps PGlite's defaults.
 */
const SMALL_BUFFERS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

export async function migratedPglite(): Promise<{
  database: Database;
  /** a second handle on the same data, as another instance would have */
  openAnother(): Promise<Database>;
  drop(): Promise<void>;
}> {
  const file = snapshotFile();
  let pg: PGlite;
  if (await Bun.file(file).exists()) {
    pg = new PGlite({ loadDataDir: Bun.file(file), startParams: SMALL_BUFFERS });
  } else {
    pg = new PGlite();
    await createDatabase({ pglite: pg });
    const dump = await pg.dumpDataDir("none");
    // written aside and renamed: a concurrent reader never sees half a file
    const partial = `${file}.${process.pid}.${Date.now()}`;
    writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  const database = await createDatabase({ pglite: pg });
  return {
    database,
    openAnother: () => createDatabase({ pglite: pg }),
    drop: () => pg.close(),
  };
}
