import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { createDatabase } from "../../src/db/client.ts";
import { apiKeys, organizations } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  factories,
  freshDatabase,
  send,
  useTestApp,
} from "../helpers/harness.ts";

function suite(driver: DriverName) {
  const { app, db } = useTestApp(driver);

  test("migrations are applied at start-up and a second start is a no-op", async () => {
    const journal = JSON.parse(
      readFileSync(new URL("../../drizzle/meta/_journal.json", import.meta.url), "utf8"),
    );
    const applied = async (database: { db: typeof db.database.db }) => {
      const result = await database.db.execute(
        sql`select hash, created_at from drizzle.__drizzle_migrations order by id`,
      );
      return Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
    };
    const first = await applied(db.database);
    expect(first, "every migration in drizzle/ is recorded once").toHaveLength(
      journal.entries.length,
    );
    // a row written before the second start survives it
    const org = await factories(app).organization({ name: "Survives restart" });
    const other = await db.openAnother();
    expect(await applied(other), "the second start applied nothing").toEqual(first);
    const rows = await other.db
      .select({ n: sql<number>`count(*)::int` })
      .from(organizations)
      .where(eq(organizations.id, org.id));
    expect(rows[0]?.n).toBe(1);
  });

  test("OpenAPI at /swagger/json documents each route, its responses and the bearer scheme", async () => {
    const response = await send(app, "/swagger/json");
    expect(response.status).toBe(200);
    const spec = await response.json();
    expect(spec.components.securitySchemes.bearer).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    for (const path of ["/api/v1/whoami", "/api/v1/health"]) {
      const responses = spec.paths[path]?.get?.responses ?? {};
      expect(Object.keys(responses).sort()).toEqual(["200", "401", "403", "429", "500"]);
    }
    expect(spec.paths["/graphql"]).toBeUndefined();
    const ui = await send(app, "/swagger");
    expect(ui.status).toBe(200);
    expect(ui.headers.get("content-type")).toContain("text/html");
  });

  test("GraphiQL is served to browsers at /graphql outside production", async () => {
    const response = await send(app, "/graphql", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("GraphiQL");
  });

  test("the key cache keeps repeated requests off the database", async () => {
    const { key } = await factories(app).member();
    const before = db.database.stats.queries;
    for (let i = 0; i < 20; i++)
      expect((await send(app, "/api/v1/health", { key })).status).toBe(200);
    // the key lookup and the organization's quota total, each once; then memory only
    expect(db.database.stats.queries - before).toBe(2);
  });
}

describeEachDriver("platform", suite);

if (process.env.TEST_DATABASE_URL) {
  test("postgres.js really prepares Drizzle's parameterised queries", async () => {
    const fresh = await freshDatabase("postgres");
    const url = fresh.databaseUrl as string;
    const single = await createDatabase({ databaseUrl: url, poolSize: 1 });
    try {
      await single.db.select().from(apiKeys).where(sql`${apiKeys.name} = ${"probe"}`);
      const prepared = (await single.db.execute(
        sql`select statement from pg_prepared_statements`,
      )) as unknown as { statement: string }[];
      expect(prepared.some((p) => p.statement.includes('from "api_keys"'))).toBe(true);
    } finally {
      await single.close();
      await fresh.drop();
    }
  });
}
