import { expect, test } from "bun:test";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  graphql,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { CREATE_ORG } from "../helpers/operator-ops.ts";

function suite(driver: DriverName) {
  const orgCount = async () => (await db.database.db.query.organizations.findMany()).length;

  const { app, db } = useTestApp(driver);

  test("without a token → 401, nothing created", async () => {
    const before = await orgCount();
    const { response, json } = await graphql(app, undefined, CREATE_ORG, { input: { name: "X" } });
    expect(response.status).toBe(401);
    expect(json).toEqual({ error: "Missing API key" });
    expect(await orgCount()).toBe(before);
  });

  test("a wrong operator token → 401 Invalid API key", async () => {
    const before = await orgCount();
    const { response, json } = await graphql(app, `${TEST_ADMIN_TOKEN}x`, CREATE_ORG, {
      input: { name: "X" },
    });
    expect(response.status).toBe(401);
    expect(json).toEqual({ error: "Invalid API key" });
    expect(await orgCount()).toBe(before);
  });

  test("with ADMIN_TOKEN unset, operator access is off: even the former token is refused", async () => {
    const before = await orgCount();
    const closed = await buildTestApp(db.database, { env: { ADMIN_TOKEN: "" } });
    try {
      const { response, json } = await graphql(closed, TEST_ADMIN_TOKEN, CREATE_ORG, {
        input: { name: "X" },
      });
      expect(response.status).toBe(401);
      expect(json).toEqual({ error: "Invalid API key" });
      expect(await orgCount()).toBe(before);
    } finally {
      await closed.stop();
    }
  });

  test("the right token works", async () => {
    const before = await orgCount();
    const { json } = await graphql(app, TEST_ADMIN_TOKEN, CREATE_ORG, {
      input: { name: "Allowed" },
    });
    expect(json.data.createOrganization.name).toBe("Allowed");
    expect(await orgCount()).toBe(before + 1);
  });

  test("the operator token cannot act as an API key on REST routes", async () => {
    const response = await app.handle(
      new Request("http://localhost/api/v1/whoami", {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Invalid API key" });
  });
}

describeEachDriver("operator API (security)", suite);
