import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { apiKeyNotices } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";

const DAY = 86_400_000;
const DRIZZLE = new URL("../../drizzle/", import.meta.url);
const BACKFILL = readFileSync(
  new URL(
    readdirSync(DRIZZLE).find((f) => f.endsWith("_api_key_notices_backfill.sql")) ?? "missing",
    DRIZZLE,
  ),
  "utf8",
);

/**
 * Keys made before the expiry-warning schedule existed get the points still ahead of them from
 * a migration (docs/decisions.md §18), as a key made now would; revoked keys and keys that
 * never expire get none.
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("the migration schedules the points still ahead of live expiring keys only", async () => {
    const soon = await make.member({ expiresAt: new Date(Date.now() + 10 * DAY) });
    const later = await make.member({ expiresAt: new Date(Date.now() + 40 * DAY) });
    const revoked = await make.member({ expiresAt: new Date(Date.now() + 40 * DAY) });
    await app.services.apiKeys.revokeApiKey(revoked.apiKey.id);
    await make.member({ expiresIn: "NEVER" });
    const { db: d } = db.database;
    await d.delete(apiKeyNotices);
    await d.execute(sql.raw(BACKFILL));
    const rows = await d.select().from(apiKeyNotices);
    const points = (keyId: string) =>
      rows
        .filter((r) => r.keyId === keyId)
        .map((r) => r.point)
        .sort();
    expect(points(soon.apiKey.id)).toEqual(["1d", "7d", "expired"]);
    expect(points(later.apiKey.id)).toEqual(["1d", "30d", "7d", "expired"]);
    expect(rows.every((r) => [soon.apiKey.id, later.apiKey.id].includes(r.keyId))).toBe(true);
    const expired = rows.find((r) => r.keyId === later.apiKey.id && r.point === "expired");
    expect(expired?.dueAt.toISOString()).toBe(later.apiKey.expiresAt?.toISOString());
    expect(rows.every((r) => r.sentAt === null)).toBe(true);
  });
}

describeEachDriver("expiry-warning schedule of existing keys", suite);
