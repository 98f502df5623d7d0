import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { expectPageBounds, graphqlError } from "../helpers/lists.ts";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("limit 0/201, offset -1 and non-integers → 400 Validation failed naming the field", async () => {
    const { key } = await make.member({ scopes: ["users:read"] });
    await expectPageBounds(app, "/api/v1/groups", key);
  });

  test("GraphQL refuses limit 201 with the same details", async () => {
    const { key } = await make.member({ scopes: ["users:read"] });
    const error = await graphqlError(app, key, "{ groups(limit: 201) { data { id } } }");
    expect(error).toMatchObject({
      status: 400,
      message: "Validation failed",
      details: [{ path: ["limit"], message: "Must be an integer from 1 to 200" }],
    });
  });
}

describeEachDriver("groups (error)", suite);
