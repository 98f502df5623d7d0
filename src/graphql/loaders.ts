import DataLoader from "dataloader";
import { inArray } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { organizations, users } from "../db/schema/index.ts";

/** Batches by-id lookups within one request, so a list of N rows costs one query per relation. */
export function createLoaders(db: Db) {
  return {
    organization: byId(db, organizations),
    user: byId(db, users),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

function byId<T extends typeof organizations | typeof users>(db: Db, table: T) {
  return new DataLoader<string, T["$inferSelect"] | null>(async (ids) => {
    const rows = (await db
      .select()
      .from(table as typeof organizations)
      .where(inArray(table.id, [...ids]))) as T["$inferSelect"][];
    const found = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => found.get(id) ?? null);
  });
}
