import { expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { memberships } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  /** pins a membership's join time, so the order under test does not depend on the clock */
  const joinedAt = (organizationId: string, userId: string, at: string) =>
    db.database.db
      .update(memberships)
      .set({ createdAt: new Date(at) })
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));

  test("GET /api/v1/users: userId, role and profile with email for an admin (users.manage)", async () => {
    const { key, organizationId, user } = await make.member({
      role: "admin",
      scopes: ["users:read"],
    });
    const tech = await make.user({ firstName: "Bob", lastName: "Tech", email: "bob@x.example" });
    await app.services.operator.addMember({ organizationId, userId: tech.id, role: "technician" });
    await joinedAt(organizationId, user.id, "2026-01-01T00:00:00Z");
    await joinedAt(organizationId, tech.id, "2026-01-02T00:00:00Z");
    const { status, body } = await getJson(app, "/api/v1/users", key);
    expect(status).toBe(200);
    expect(body).toEqual({
      data: [
        {
          userId: tech.id,
          role: "technician",
          profile: { firstName: "Bob", lastName: "Tech", email: "bob@x.example" },
        },
        {
          userId: user.id,
          role: "admin",
          profile: { firstName: user.firstName, lastName: user.lastName, email: user.email },
        },
      ],
      pagination: { total: 2, limit: 50, offset: 0 },
    });
  });

  test("a technician (users.view, no users.manage) sees profiles without the email field", async () => {
    const { key, user } = await make.member({ role: "technician", scopes: ["users:read"] });
    const { status, body } = await getJson(app, "/api/v1/users", key);
    expect(status).toBe(200);
    expect(body.data).toEqual([
      {
        userId: user.id,
        role: "technician",
        profile: { firstName: user.firstName, lastName: user.lastName },
      },
    ]);
    expect("email" in body.data[0].profile).toBe(false);
  });

  test("a custom role is listed by its name; pages are stable", async () => {
    const { key, organizationId } = await make.member({ scopes: ["users:read"] });
    await make.role(organizationId, "night-shift", "TECHNICIAN", ["users.view"]);
    for (let i = 0; i < 4; i++) {
      const extra = await make.user();
      await app.services.operator.addMember({
        organizationId,
        userId: extra.id,
        role: "night-shift",
      });
    }
    const { body } = await getJson(app, "/api/v1/users", key);
    expect(body.data.filter((m: { role: string }) => m.role === "night-shift")).toHaveLength(4);
    await expectStablePages(app, "/api/v1/users", key);
  });

  test("GraphQL users answers the same members; email is null where REST omits it", async () => {
    const { key, user } = await make.member({ role: "technician", scopes: ["users:read"] });
    const { json } = await graphql(
      app,
      key,
      "{ users { data { userId role profile { firstName lastName email } } pagination { total } } }",
    );
    expect(json.data.users).toEqual({
      data: [
        {
          userId: user.id,
          role: "technician",
          profile: { firstName: user.firstName, lastName: user.lastName, email: null },
        },
      ],
      pagination: { total: 1 },
    });
  });
}

describeEachDriver("users (happy)", suite);
