import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { expectPageBounds, getJson, graphqlError } from "../helpers/lists.ts";

const PATH = "/api/v1/agent-releases";

function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("limit 0/201, offset -1 and non-integers → 400 Validation failed naming the field", async () => {
    const { key } = await make.member();
    await expectPageBounds(app, PATH, key);
  });

  test("an unknown platform, an empty or 51-character channel → 400 naming the filter", async () => {
    const { key } = await make.member();
    for (const [query, field] of [
      ["platform=beos", "platform"],
      ["platform=", "platform"],
      ["platform=Windows", "platform"],
      ["channel=", "channel"],
      [`channel=${"c".repeat(51)}`, "channel"],
    ]) {
      const { status, body } = await getJson(app, `${PATH}?${query}`, key);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.error).toBe("Validation failed");
      expect(body.details[0].path).toEqual([field]);
    }
    const fifty = await getJson(app, `${PATH}?channel=${"c".repeat(50)}`, key);
    expect(fifty.status).toBe(200);
  });

  test("GraphQL refuses the same filters with the same details", async () => {
    const { key } = await make.member();
    const platform = await graphqlError(
      app,
      key,
      '{ agentReleases(platform: "beos") { data { id } } }',
    );
    expect(platform).toMatchObject({
      status: 400,
      message: "Validation failed",
      details: [
        {
          path: ["platform"],
          message: "Must be one of windows, macos, linux, ios, android, other",
        },
      ],
    });
    const channel = await graphqlError(app, key, '{ agentReleases(channel: "") { data { id } } }');
    expect(channel.details[0].path).toEqual(["channel"]);
    const limit = await graphqlError(app, key, "{ agentReleases(limit: 0) { data { id } } }");
    expect(limit.details[0].path).toEqual(["limit"]);
  });
}

describeEachDriver("agent releases (error)", suite);
