import { expect, test } from "bun:test";
import { groupMembers, groups } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  async function group(organizationId: string, name: string, at: string, description?: string) {
    const [row] = await db.database.db
      .insert(groups)
      .values({ organizationId, name, description, createdAt: new Date(at) })
      .returning();
    return row as typeof groups.$inferSelect;
  }

  test("GET /api/v1/groups answers id, name, description, memberCount, createdAt, newest first", async () => {
    const { key, organizationId, user } = await make.member({ scopes: ["users:read"] });
    const colleague = await make.user();
    await app.services.operator.addMember({
      organizationId,
      userId: colleague.id,
      role: "technician",
    });
    const helpdesk = await group(organizationId, "Helpdesk", "2026-01-01T00:00:00Z", "First line");
    const empty = await group(organizationId, "Empty", "2026-01-02T00:00:00Z");
    await db.database.db.insert(groupMembers).values([
      { groupId: helpdesk.id, userId: user.id },
      { groupId: helpdesk.id, userId: colleague.id },
    ]);
    const { status, body } = await getJson(app, "/api/v1/groups", key);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          id: empty.id,
          name: "Empty",
          description: null,
          memberCount: 0,
          createdAt: "2026-01-02T00:00:00.000Z",
        },
        {
          id: helpdesk.id,
          name: "Helpdesk",
          description: "First line",
          memberCount: 2,
          createdAt: "2026-01-01T00:00:00.000Z",
        },
      ],
      pagination: { total: 2, limit: 50, offset: 0 },
    });
  });

  test("memberCount drops a user who left the organization", async () => {
    const { key, organizationId, user } = await make.member({ scopes: ["users:read"] });
    const leaver = await make.user();
    await app.services.operator.addMember({ organizationId, userId: leaver.id, role: "admin" });
    const team = await group(organizationId, "Team", "2026-01-01T00:00:00Z");
    await db.database.db.insert(groupMembers).values([
      { groupId: team.id, userId: user.id },
      { groupId: team.id, userId: leaver.id },
    ]);
    expect((await getJson(app, "/api/v1/groups", key)).body.data[0].memberCount).toBe(2);
    await app.services.operator.removeMember(organizationId, leaver.id);
    expect((await getJson(app, "/api/v1/groups", key)).body.data[0].memberCount).toBe(1);
  });

  test("pages are stable across offsets", async () => {
    const { key, organizationId } = await make.member({ scopes: ["users:read"] });
    for (let i = 0; i < 5; i++) await group(organizationId, `G${i}`, "2026-01-01T00:00:00Z");
    await expectStablePages(app, "/api/v1/groups", key);
  });

  test("a technician (users.view) lists groups; GraphQL answers the same", async () => {
    const { key, organizationId } = await make.member({
      role: "technician",
      scopes: ["users:read"],
    });
    await group(organizationId, "Ops", "2026-01-01T00:00:00Z");
    const rest = await getJson(app, "/api/v1/groups", key);
    expect(rest.status).toBe(200);
    const { json } = await graphql(
      app,
      key,
      "{ groups { data { id name description memberCount createdAt } pagination { total limit offset } } }",
    );
    expect(json.data.groups).toEqual(rest.body);
  });
}

describeEachDriver("groups (happy)", suite);
