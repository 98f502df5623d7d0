import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { databaseUnavailableCode } from "../../src/db/errors.ts";
import { describeEachDriver, type FreshDatabase, freshDatabase } from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * `Database.connectionClosedAt` (src/db/database.ts), which the key store reads before caching a
 * "no such key" (src/auth/key-store.ts): set when a pooled connection is lost, here by
 * terminating the backend of a statement in flight (through PgBouncer under `npm run
 * test:pgbouncer`, whose server session it then is); never set on PGlite.
 */
describeEachDriver("connectionClosedAt", (driver) => {
  let fresh: FreshDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase(driver);
  });
  afterAll(() => fresh?.drop());

  test(
    driver === "postgres"
      ? "undefined until a connection is lost, then when; the next statement on that connection is answered"
      : "PGlite never loses a connection",
    async () => {
      if (driver === "pglite") {
        await fresh.database.db.execute(sql`select 1`);
        expect(fresh.database.connectionClosedAt?.()).toBeUndefined();
        return;
      }
      // one connection, so that the statement after the loss runs on the Connection that lost it
      const database = await fresh.openAnother({ poolSize: 1 });
      await database.db.execute(sql`select 1`);
      expect(database.connectionClosedAt?.()).toBeUndefined();

      const name = new URL(fresh.databaseUrl as string).pathname.slice(1);
      const admin = postgres(process.env.TEST_DATABASE_URL as string, {
        max: 1,
        onnotice: () => {},
      });
      try {
        const before = Date.now();
        const sleeping = database.db.execute(sql`select pg_sleep(30)`).then(
          () => "answered",
          (error: unknown) => databaseUnavailableCode(error) ?? String(error),
        );
        await eventually(async () => {
          const [row] = await admin<{ n: number }[]>`
            select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
            where datname = ${name} and query like 'select pg_sleep(30)%'`;
          return (row?.n ?? 0) > 0;
        }, "the sleeping statement's backend terminated");
        expect(["57P01", "08P01", "CONNECTION_CLOSED"]).toContain(await sleeping);
        const closedAt = database.connectionClosedAt?.() as number;
        expect(closedAt).toBeGreaterThanOrEqual(before);
        expect(closedAt).toBeLessThanOrEqual(Date.now());
        // the first statement after the loss is sent and answered, not failed with the old error
        expect(await database.db.execute(sql`select 2 as two`)).toMatchObject([{ two: 2 }]);
      } finally {
        await admin.end();
        await database.close();
      }
    },
  );
});
