import { afterEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  factories,
  freshDatabase,
  send,
  useTestApp,
} from "../helpers/harness.ts";

/**
 * /livez and /readyz (docs/decisions.md §11): no key, no limits, no quota, exempt from
 * REQUIRE_HTTPS, JSON; readyz answers 503 while the database does not answer or migrations
 * are not applied, and 200 again after. A query that loses its connection answers 503.
 */

/** what postgres.js raises when a backend is terminated under a query */
const connectionClosed = () =>
  Object.assign(new Error("write CONNECTION_CLOSED 127.0.0.1:5432"), {
    code: "CONNECTION_CLOSED",
  });

function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];
  const { app, db } = useTestApp(driver, {
    logs,
    // the probes must answer whatever the limits and the HTTPS policy say
    env: { REQUIRE_HTTPS: "true", RATE_LIMIT_IP_PER_MIN: "1", RATE_LIMIT_BURST_PER_SEC: "1" },
  });
  const restore: (() => void)[] = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  /** Replaces one method of the app's Drizzle handle until the end of the test. */
  function stub<K extends keyof Db>(name: K, replacement: Db[K]) {
    const target = db.database.db;
    const original = target[name];
    target[name] = replacement;
    restore.push(() => {
      target[name] = original;
    });
  }

  test("livez answers 200 JSON over plain HTTP, without a key, as often as asked", async () => {
    for (let i = 0; i < 5; i++) {
      const response = await send(app, "/livez");
      expect(response.status, "REQUIRE_HTTPS and the 1/min IP limit do not apply").toBe(200);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.headers.get("x-ratelimit-limit"), "no limit headers").toBeNull();
      expect(await response.json()).toEqual({ status: "ok" });
    }
    const api = await send(app, "/api/v1/health");
    expect(api.status, "the API itself still requires HTTPS").toBe(403);
    expect(await api.json()).toEqual({ error: "HTTPS required" });
  });

  test("readyz answers 200 with its checks while the database answers and is migrated", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await send(app, "/readyz");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual({
        status: "ok",
        checks: { database: "ok", migrations: "ok" },
      });
    }
  });

  test("readyz answers 503 while the database refuses, then 200 again", async () => {
    stub("execute", (() => Promise.reject(connectionClosed())) as unknown as Db["execute"]);
    const down = await send(app, "/readyz");
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    const body = await down.json();
    expect(body).toEqual({
      status: "unavailable",
      error: "Database unavailable",
      checks: { database: "unavailable", migrations: "unknown" },
    });
    expect(JSON.stringify(body), "no host or driver detail in public").not.toContain("5432");
    expect(logs.some((l) => l.msg === "not ready" && l.level === "warn")).toBe(true);

    for (const undo of restore.splice(0)) undo();
    const up = await send(app, "/readyz");
    expect(up.status).toBe(200);
    expect(logs.some((l) => l.msg === "ready again: the database answers")).toBe(true);
  });

  test("readyz answers 503 when the database does not answer at all (no hanging probe)", async () => {
    stub("execute", (() => new Promise(() => {})) as unknown as Db["execute"]);
    const down = await send(app, "/readyz");
    expect(down.status).toBe(503);
    expect((await down.json()).checks.database).toBe("unavailable");
  });

  test("readyz answers 503 while the newest migration is not applied, 200 once it is", async () => {
    const newest = sql`(select max(created_at) from drizzle.__drizzle_migrations)`;
    const rows = await db.database.db.execute(
      sql`delete from drizzle.__drizzle_migrations where created_at = ${newest} returning hash, created_at`,
    );
    const [removed] = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as {
      hash: string;
      created_at: string;
    }[];
    expect(removed, "a migration row to remove").toBeDefined();
    const pending = await send(app, "/readyz");
    expect(pending.status).toBe(503);
    expect(await pending.json()).toEqual({
      status: "unavailable",
      error: "Database migrations are not applied",
      checks: { database: "ok", migrations: "pending" },
    });
    await db.database.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${removed?.hash}, ${removed?.created_at})`,
    );
    expect((await send(app, "/readyz")).status).toBe(200);
  });

  test("a request whose connection is lost answers 503 Service unavailable, logged without its data", async () => {
    // a second app over the same database, with HTTPS not required, to reach the API itself
    const fresh = await freshDatabase(driver);
    const other = await buildTestApp(fresh.database, { logs });
    try {
      const { key } = await factories(other).member({ scopes: ["projects:write"] });
      const target = fresh.database.db;
      const original = target.transaction;
      target.transaction = (() => Promise.reject(connectionClosed())) as Db["transaction"];
      const response = await send(other, "/api/projects", {
        key,
        body: { name: "secret-project-name" },
      });
      target.transaction = original;
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(await response.json()).toEqual({ error: "Service unavailable" });
      const line = logs.find((l) => l.msg === "database unavailable");
      expect(line?.dbError).toBe("CONNECTION_CLOSED");
      expect(JSON.stringify(line)).not.toContain("secret-project-name");
      const again = await send(other, "/api/projects", { key, body: { name: "after" } });
      expect(again.status, "the next request succeeds").toBe(201);
    } finally {
      await other.stop();
      await fresh.drop();
    }
  });
}

describeEachDriver("probes", suite);
