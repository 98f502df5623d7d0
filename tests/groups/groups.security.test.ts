import { expect, test } from "bun:test";
import { groupMembers, groups } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson, listAccessTests } from "../helpers/lists.ts";

const PATH = "/api/v1/groups";
const QUERY = "{ groups { data { id } } }";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  listAccessTests(
    { app, make },
    {
      path: PATH,
      query: QUERY,
      scope: "users:read",
      permission: "users.view",
      otherScope: "equipment:read",
      otherRole: { name: "tickets-only", permissions: ["tickets.view_all"] },
    },
  );

  test("another organization's groups are never listed nor counted", async () => {
    const mine = await make.member({ scopes: ["users:read"] });
    const theirs = await make.member({ scopes: ["users:read"] });
    await db.database.db.insert(groups).values([
      { organizationId: mine.organizationId, name: "Mine" },
      { organizationId: theirs.organizationId, name: "Theirs" },
    ]);
    const { body } = await getJson(app, PATH, mine.key);
    expect(body.data.map((g: { name: string }) => g.name)).toEqual(["Mine"]);
    expect(body.pagination.total).toBe(1);
  });

  test("200 groups with members cost at most one statement more than 1 (the count; no N+1)", async () => {
    const { key, organizationId, user } = await make.member({ scopes: ["users:read"] });
    // the fewest statements over three calls: a background flush (quota counts, key
    // lastUsedAt) may land inside one measurement, never inside all three
    const measure = async () => {
      let queries = Number.POSITIVE_INFINITY;
      let rows = 0;
      for (let i = 0; i < 3; i++) {
        const before = db.database.stats.queries;
        const response = await send(app, `${PATH}?limit=200`, { key });
        expect(response.status).toBe(200);
        rows = (await response.json()).data.length;
        queries = Math.min(queries, db.database.stats.queries - before);
      }
      return { queries, rows };
    };
    const [first] = await db.database.db
      .insert(groups)
      .values({ organizationId, name: "G0" })
      .returning();
    await db.database.db
      .insert(groupMembers)
      .values({ groupId: first?.id as string, userId: user.id });
    await measure(); // warms the key cache
    const one = await measure();
    const many = await db.database.db
      .insert(groups)
      .values(Array.from({ length: 199 }, (_, i) => ({ organizationId, name: `G${i + 1}` })))
      .returning();
    await db.database.db
      .insert(groupMembers)
      .values(many.map((g) => ({ groupId: g.id, userId: user.id })));
    const big = await measure();
    expect(one.rows).toBe(1);
    expect(big.rows).toBe(200);
    // a full page also counts the list (a short page tells its total itself): one statement
    // more at most, never one per group
    expect(big.queries).toBeLessThanOrEqual(one.queries + 1);
    expect(big.queries).toBeLessThanOrEqual(4);
  });
}

describeEachDriver("groups (security)", suite);
