import { expect, test } from "bun:test";
import { equipmentUnits } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { getJson, graphqlError } from "../helpers/lists.ts";

const PATH = "/api/v1/equipment-units";
const QUERY = "{ equipmentUnits { data { id } } }";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("no key → 401 Missing API key (REST and GraphQL)", async () => {
    expect(await getJson(app, PATH)).toMatchObject({
      status: 401,
      body: { error: "Missing API key" },
    });
    expect(await graphqlError(app, undefined, QUERY)).toEqual({
      status: 401,
      message: "Missing API key",
    });
  });

  test("a key without equipment:read → 403 Missing scope: equipment:read", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    expect(await getJson(app, PATH, key)).toMatchObject({
      status: 403,
      body: { error: "Missing scope: equipment:read" },
    });
    expect(await graphqlError(app, key, QUERY)).toMatchObject({
      status: 403,
      message: "Missing scope: equipment:read",
    });
  });

  test("FREE plan and USER seats have no API access", async () => {
    const free = await make.member({ plan: "FREE", scopes: ["equipment:read"] });
    expect(await getJson(app, PATH, free.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
    const org = await make.organization();
    await make.role(org.id, "viewer", "USER", ["equipment.view_all"]);
    const user = await make.member({
      organizationId: org.id,
      role: "viewer",
      scopes: ["equipment:read"],
    });
    expect(await getJson(app, PATH, user.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires an administrator or technician seat" },
    });
    expect(await graphqlError(app, user.key, QUERY)).toMatchObject({
      status: 403,
      message: "API access requires an administrator or technician seat",
    });
  });

  test("another organization's units are never listed nor counted", async () => {
    const mine = await make.member({ scopes: ["equipment:read"] });
    const theirs = await make.member({ scopes: ["equipment:read"] });
    await db.database.db.insert(equipmentUnits).values([
      { organizationId: mine.organizationId, name: "Mine" },
      { organizationId: theirs.organizationId, name: "Theirs 1" },
      { organizationId: theirs.organizationId, name: "Theirs 2" },
    ]);
    const { body } = await getJson(app, PATH, mine.key);
    expect(body.data.map((u: { name: string }) => u.name)).toEqual(["Mine"]);
    expect(body.pagination.total).toBe(1);
  });
}

describeEachDriver("equipment units (security)", suite);
