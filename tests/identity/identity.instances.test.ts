import { expect, test } from "bun:test";
import { serviceInstances } from "../../src/db/schema/index.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  freshDatabase,
  send,
  useTestApp,
} from "../helpers/harness.ts";

/**
 * An operator change (revocation, member removal…) waits until every live instance has dropped
 * its cached keys. An instance that died without deregistering must not make every change wait
 * for the acknowledgement timeout: on Postgres it is noticed at once (no session left), and
 * anywhere once its heartbeat is stale.
 */
const NOT_ACKNOWLEDGED = "auth change not acknowledged by every instance in time";

function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];
  const { app, db, make } = useTestApp(driver, { logs });

  async function revokeNewKey() {
    const { apiKey } = await make.member();
    logs.length = 0;
    await app.services.apiKeys.revokeApiKey(apiKey.id);
    return logs.filter((line) => line.msg === NOT_ACKNOWLEDGED);
  }

  test("an instance silent for 20 s is presumed dead: changes do not wait for it", async () => {
    const id = crypto.randomUUID();
    await db.database.db.insert(serviceInstances).values({
      id,
      startedAt: new Date(Date.now() - 60_000),
      seenAt: new Date(Date.now() - 20_000),
    });
    expect(await revokeNewKey(), "no acknowledgement awaited from the silent instance").toEqual([]);
  });

  if (driver === "postgres") {
    test("an instance that crashed a moment ago (fresh heartbeat, no session) is not waited for", async () => {
      const id = crypto.randomUUID();
      await db.database.db.insert(serviceInstances).values({ id });
      expect(await revokeNewKey(), "no acknowledgement awaited from the dead instance").toEqual([]);
    });

    test("a live instance is still waited for, and refuses the key at once", async () => {
      const other = await buildTestApp(await db.openAnother());
      try {
        const { key, apiKey } = await make.member();
        expect((await send(other, "/api/v1/whoami", { key })).status, "cached there").toBe(200);
        const live = await db.database.liveInstances?.([
          ...(await db.database.db.select({ id: serviceInstances.id }).from(serviceInstances)).map(
            (row) => row.id,
          ),
        ]);
        expect(live?.size, "both instances hold sessions").toBe(2);
        logs.length = 0;
        await app.services.apiKeys.revokeApiKey(apiKey.id);
        expect(logs.filter((line) => line.msg === NOT_ACKNOWLEDGED)).toEqual([]);
        const refused = await send(other, "/api/v1/whoami", { key });
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual({ error: "API key revoked" });
      } finally {
        await other.stop();
      }
    });
  }
}

describeEachDriver("operator changes and dead instances", suite);

test("an instance stops cleanly even when its database is already gone", async () => {
  const logs: Record<string, unknown>[] = [];
  const fresh = await freshDatabase("pglite");
  const instance = await buildTestApp(fresh.database, { logs });
  await fresh.drop();
  await instance.stop();
  expect(logs.some((line) => line.msg === "could not deregister this instance")).toBe(true);
});
