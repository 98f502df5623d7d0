import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "../../src/db/client.ts";
import { createLogger } from "../../src/logger.ts";
import { WebhookDispatcher } from "../../src/outbox/dispatcher.ts";
import { testDispatcherOptions } from "../helpers/dispatcher-options.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * A wake-up (a NOTIFY for a new event, a finished send) that arrives after the claim loop's last
 * check but before the loop has handed back is not lost: the dispatcher claims again at once
 * instead of leaving the new work to the next poll (10 minutes here).
 */
let fresh: Awaited<ReturnType<typeof migratedPglite>>;
const dialect = new PgDialect();

beforeAll(async () => {
  fresh = await migratedPglite();
});
afterAll(async () => {
  await fresh?.drop();
});

test("a wake-up landing between the claim loop's last check and its end claims again at once", async () => {
  const base: Database = fresh.database;
  let claims = 0;
  const db = Object.create(base.db) as Database["db"];
  db.execute = (async (query: SQL) => {
    if (dialect.sqlToQuery(query).sql.includes("with busy as")) claims++;
    return base.db.execute(query);
  }) as unknown as Database["db"]["execute"];
  const logger = createLogger("silent", () => {});
  const dispatcher = new WebhookDispatcher(
    { ...base, db },
    logger,
    () => new Date("2043-01-01T00:00:00.000Z"),
    testDispatcherOptions({ pollMs: 600_000 }),
  );
  // the claim loop as it runs, plus one wake-up in the gap after its last `while` check
  const loop = dispatcher as unknown as { fill(): Promise<void> };
  const fill = loop.fill.bind(dispatcher);
  let rounds = 0;
  loop.fill = async () => {
    rounds++;
    await fill();
    if (rounds === 1) dispatcher.wake();
  };
  try {
    dispatcher.wake();
    await eventually(() => rounds === 2, "a second claim round for the late wake-up");
    expect(claims, "one claim statement per round").toBe(2);
  } finally {
    await dispatcher.stop();
  }
});
