import { expect, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import {
  type DriverName,
  describeEachDriver,
  type FreshDatabase,
  send,
  useTestApp,
} from "../helpers/harness.ts";

/**
 * Database statements per request on the hot routes, counted (never timed): a change that adds
 * a round trip to whoami, the tickets page or the equipment page fails here. Counted over the
 * steady state (key cached, quota loaded); background timers (last-used flush, heartbeat) may
 * add a statement to a try, so the fewest of three tries is taken: a real extra round trip
 * shows in every try.
 */
const EXPECTED: Record<string, number> = {
  "/api/v1/whoami": 0,
  "/api/v1/health": 0,
  "/api/v1/tickets": 1,
  "/api/v1/tickets?status=open&priority=high&limit=5": 1,
  "/api/v1/equipments": 1,
};
const REQUESTS = 5;

async function statementsPerRequest(app: OrgitApp, db: FreshDatabase, path: string, key: string) {
  let fewest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = db.database.stats.queries;
    for (let i = 0; i < REQUESTS; i++) {
      const response = await send(app, path, { key });
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
    }
    fewest = Math.min(fewest, db.database.stats.queries - before);
  }
  return fewest / REQUESTS;
}

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("hot routes make no more database round trips than budgeted", async () => {
    const { key } = await make.member({ scopes: ["tickets:read", "equipment:read"] });
    await send(app, "/api/v1/whoami", { key }); // caches the key, loads the quota total
    const measured: Record<string, number> = {};
    for (const path of Object.keys(EXPECTED)) {
      measured[path] = await statementsPerRequest(app, db, path, key);
    }
    expect(measured, "statements per request").toEqual(EXPECTED);
  });

  test("an owner-only key's tickets page is one round trip too", async () => {
    const admin = await make.member({ scopes: ["tickets:read"] });
    await make.role(admin.organizationId, "reporter", "TECHNICIAN", ["tickets.manage"]);
    const { key } = await make.member({
      organizationId: admin.organizationId,
      role: "reporter",
      scopes: ["tickets:read"],
    });
    await send(app, "/api/v1/whoami", { key });
    expect(await statementsPerRequest(app, db, "/api/v1/tickets", key)).toBe(1);
  });
}

describeEachDriver("database round trips per request", suite);
