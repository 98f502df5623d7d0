import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { expectPageBounds, graphqlError } from "../helpers/lists.ts";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("limit 0/201, offset -1 and non-integers → 400 Validation failed naming the field", async () => {
    const { key } = await make.member({ scopes: ["users:read"] });
    await expectPageBounds(app, "/api/v1/users", key);
  });

  test("GraphQL refuses offset -1 with the same details", async () => {
    const { key } = await make.member({ scopes: ["users:read"] });
    const error = await graphqlError(app, key, "{ users(offset: -1) { data { userId } } }");
    expect(error).toMatchObject({ status: 400, message: "Validation failed" });
    expect(error.details[0].path).toEqual(["offset"]);
  });
}

describeEachDriver("users (error)", suite);
