import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { getJson, graphqlError } from "../helpers/lists.ts";

const PATH = "/api/v1/agent-releases";
const QUERY = "{ agentReleases { data { id } } }";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

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

  test("FREE plan → 403 API access requires the Pro plan (REST and GraphQL)", async () => {
    const { key } = await make.member({ plan: "FREE" });
    expect(await getJson(app, PATH, key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
    expect(await graphqlError(app, key, QUERY)).toMatchObject({
      status: 403,
      message: "API access requires the Pro plan",
    });
  });

  test("a USER seat → 403 even though no scope is needed", async () => {
    const org = await make.organization();
    await make.role(org.id, "staff", "USER", []);
    const { key } = await make.member({ organizationId: org.id, role: "staff" });
    expect(await getJson(app, PATH, key)).toMatchObject({
      status: 403,
      body: { error: "API access requires an administrator or technician seat" },
    });
  });

  test("the operator token is not an API key for this query", async () => {
    expect(await graphqlError(app, TEST_ADMIN_TOKEN, QUERY)).toMatchObject({
      status: 403,
      message: "This operation needs an API key, not the operator token",
    });
  });
}

describeEachDriver("agent releases (security)", suite);
