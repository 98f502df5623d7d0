import { expect, test } from "bun:test";
import { describeEachDriver, graphql, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/** Bad input to the change feed: a clear 400 in the contract's format (docs/api.md). */
describeEachDriver("change feed: bad input", (driver) => {
  const { app, make } = useTestApp(driver);

  test("limit outside 1..1000 or not an integer → 400 naming limit; 1 and 1000 are fine", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    for (const limit of ["0", "1001", "-1", "1.5", "abc"]) {
      const { status, body } = await getJson(app, `/api/v1/changes?limit=${limit}`, key);
      expect({ limit, status, error: body.error }).toEqual({
        limit,
        status: 400,
        error: "Validation failed",
      });
      expect(body.details.map((d: { path: string[] }) => d.path)).toContainEqual(["limit"]);
    }
    for (const limit of [1, 1000]) {
      expect((await getJson(app, `/api/v1/changes?limit=${limit}`, key)).status).toBe(200);
    }
  });

  test("a malformed token → 400 naming since, in REST and GraphQL", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    const forged = btoa("c1.12.x").replaceAll("=", "");
    for (const since of ["not-a-token", "", "%2F%2F%2F", forged, "Yz", "A".repeat(65)]) {
      const { status, body } = await getJson(app, `/api/v1/changes?since=${since}`, key);
      expect({ since, status }).toEqual({ since, status: 400 });
      expect(body).toEqual({
        error: "Validation failed",
        details: [
          { path: ["since"], message: "Not a sync token (use the `next` of an earlier answer)" },
        ],
      });
    }
    const { json } = await graphql(app, key, `{ changes(since: "nope") { next } }`);
    expect(json.errors?.[0]?.message).toBe("Validation failed");
  });

  test("an unknown type → 400 naming types", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    for (const types of ["users", "tickets,projects", ",", "TICKETS"]) {
      const { status, body } = await getJson(app, `/api/v1/changes?types=${types}`, key);
      expect({ types, status }).toEqual({ types, status: 400 });
      expect(body.details).toEqual([
        { path: ["types"], message: "Must be a comma list of: tickets, alerts, equipment" },
      ]);
    }
  });
});
