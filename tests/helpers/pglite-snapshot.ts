import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createDatabase, type Database } from "../../src/db/client.ts";

/**
 * An in-memory PGlite with the schema, started from a data directory saved once per set of
 * migrations (in the OS temp directory) instead of running initdb and every migration: 3–4×
 * faster under load. For the unit suites StrykerJS runs once per mutant
 * (docs/testing.md, "Mutation testing"); `freshDatabase` stays the path the API suites take.
 */
const DRIZZLE = decodeURIComponent(new URL("../../drizzle", import.meta.url).pathname);

function snapshotFile(): string {
  const hash = createHash("sha256");
  const pglite = JSON.parse(
    readFileSync(join(DRIZZLE, "../node_modules/@electric-sql/pglite/package.json"), "utf8"),
  ) as { version: string };
  hash.update(pglite.version);
  for (const name of readdirSync(DRIZZLE).sort()) {
    if (name.endsWith(".sql")) hash.update(name).update(readFileSync(join(DRIZZLE, name)));
  }
  hash.update(readFileSync(join(DRIZZLE, "meta/_journal.json")));
  return join(tmpdir(), `orgit-pglite-${hash.digest("hex").slice(0, 16)}.tar`);
}

export async function migratedPglite(): Promise<{
  database: Database;
  /** a second handle on the same data, as another instance would have */
  openAnother(): Promise<Database>;
  drop(): Promise<void>;
}> {
  const file = snapshotFile();
  let pg: PGlite;
  if (await Bun.file(file).exists()) {
    pg = new PGlite({ loadDataDir: Bun.file(file) });
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
