import { expect, test } from "bun:test";
import { groupMembers, groups } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson, graphqlError } from "../helpers/lists.ts";

const PATH = "/api/v1/groups";
const QUERY = "{ groups { data { id } } }";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("no key → 401; FREE plan → 403", async () => {
    expect(await getJson(app, PATH)).toMatchObject({
      status: 401,
      body: { error: "Missing API key" },
    });
    const free = await make.member({ plan: "FREE", scopes: ["users:read"] });
    expect(await getJson(app, PATH, free.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
  });

  test("a key without users:read → 403 Missing scope: users:read (REST and GraphQL)", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    expect(await getJson(app, PATH, key)).toMatchObject({
      status: 403,
      body: { error: "Missing scope: users:read" },
    });
    expect(await graphqlError(app, key, QUERY)).toMatchObject({
      status: 403,
      message: "Missing scope: users:read",
    });
  });

  test("an owner without users.view → 403 Missing permission: users.view", async () => {
    const org = await make.organization();
    await make.role(org.id, "tickets-only", "TECHNICIAN", ["tickets.view_all"]);
    const { key } = await make.member({
      organizationId: org.id,
      role: "tickets-only",
      scopes: ["users:read"],
    });
    expect(await getJson(app, PATH, key)).toMatchObject({
      status: 403,
      body: { error: "Missing permission: users.view" },
    });
    expect(await graphqlError(app, key, QUERY)).toMatchObject({
      status: 403,
      message: "Missing permission: users.view",
    });
  });

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

  test("200 groups with members cost the same number of statements as 1 (no N+1)", async () => {
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
    expect(big.queries).toBe(one.queries);
    expect(big.queries).toBeLessThanOrEqual(4);
  });
}

describeEachDriver("groups (security)", suite);
