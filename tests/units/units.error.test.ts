import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { expectPageBounds, graphqlError } from "../helpers/lists.ts";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("limit 0/201, offset -1 and non-integers → 400 Validation failed naming the field", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    await expectPageBounds(app, "/api/v1/equipment-units", key);
  });

  test("GraphQL refuses the same bounds with the same details", async () => {
    const { key } = await make.member({ scopes: ["equipment:read"] });
    for (const [args, field] of [
      ["limit: 0", "limit"],
      ["limit: 201", "limit"],
      ["offset: -1", "offset"],
    ]) {
      const error = await graphqlError(
        app,
        key,
        `{ equipmentUnits(${args}) { pagination { total } } }`,
      );
      expect(error).toMatchObject({ status: 400, message: "Validation failed" });
      expect(error.details[0].path).toEqual([field]);
    }
  });
}

describeEachDriver("equipment units (error)", suite);
