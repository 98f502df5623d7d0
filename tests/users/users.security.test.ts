import { expect, test } from "bun:test";
import { memberships, users } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { getJson, listAccessTests } from "../helpers/lists.ts";

const PATH = "/api/v1/users";
const QUERY = "{ users { data { userId profile { email } } } }";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  listAccessTests(
    { app, make },
    {
      path: PATH,
      query: QUERY,
      scope: "users:read",
      permission: "users.view",
      otherScope: "alerts:read",
      otherRole: { name: "equipment-only", permissions: ["equipment.view_all"] },
    },
  );

  test("email is hidden without users.manage, over REST and GraphQL, and shown with it", async () => {
    const org = await make.organization();
    await make.role(org.id, "viewer", "TECHNICIAN", ["users.view"]);
    await make.role(org.id, "manager", "TECHNICIAN", ["users.view", "users.manage"]);
    const viewer = await make.member({
      organizationId: org.id,
      role: "viewer",
      scopes: ["users:read"],
    });
    const manager = await make.member({
      organizationId: org.id,
      role: "manager",
      scopes: ["users:read"],
    });
    const seen = (await getJson(app, PATH, viewer.key)).body.data;
    expect(seen).toHaveLength(2);
    for (const member of seen)
      expect(Object.keys(member.profile).sort()).toEqual(["firstName", "lastName"]);
    const { json } = await graphql(app, viewer.key, QUERY);
    expect(
      json.data.users.data.map((m: { profile: { email: unknown } }) => m.profile.email),
    ).toEqual([null, null]);
    const shown = (await getJson(app, PATH, manager.key)).body.data;
    expect(shown.map((m: { profile: { email: string } }) => m.profile.email).sort()).toEqual(
      [viewer.user.email, manager.user.email].sort(),
    );
  });

  test("members of another organization are never listed; a user in two organizations has each role", async () => {
    const mine = await make.member({ role: "admin", scopes: ["users:read"] });
    const theirs = await make.member({ role: "admin", scopes: ["users:read"] });
    await app.services.operator.addMember({
      organizationId: theirs.organizationId,
      userId: mine.user.id,
      role: "technician",
    });
    const listed = (await getJson(app, PATH, mine.key)).body;
    expect(listed.data.map((m: { userId: string }) => m.userId)).toEqual([mine.user.id]);
    expect(listed.pagination.total).toBe(1);
    const other = (await getJson(app, PATH, theirs.key)).body.data;
    expect(other.find((m: { userId: string }) => m.userId === mine.user.id)?.role).toBe(
      "technician",
    );
    expect(other).toHaveLength(2);
  });

  test("200 members cost at most one statement more than 1 (the count; profiles are joined, no N+1)", async () => {
    const { key, organizationId } = await make.member({ scopes: ["users:read"] });
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
    await measure();
    const one = await measure();
    // straight into the tables: 199 operator calls would each wait for cache invalidation
    const extras = await db.database.db
      .insert(users)
      .values(
        Array.from({ length: 199 }, (_, i) => ({
          email: `bulk${i}-${crypto.randomUUID()}@example.com`,
          firstName: `Bulk${i}`,
          lastName: "Member",
        })),
      )
      .returning({ id: users.id });
    await db.database.db
      .insert(memberships)
      .values(extras.map((u) => ({ organizationId, userId: u.id, role: "technician" })));
    const big = await measure();
    expect(one.rows).toBe(1);
    expect(big.rows).toBe(200);
    // a full page also counts the list (a short page tells its total itself): one statement
    // more at most, never one per member
    expect(big.queries).toBeLessThanOrEqual(one.queries + 1);
    expect(big.queries).toBeLessThanOrEqual(4);
  });
}

describeEachDriver("users (security)", suite);
