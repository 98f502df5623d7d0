import { expect, test } from "bun:test";
import { getNamedType, isLeafType, isObjectType, isUnionType } from "graphql";
import { ListChangesDocument } from "../../src/generated/graphql.ts";
import { GRAPHQL_LIMITS } from "../../src/graphql/limits.ts";
import { buildSchema } from "../../src/graphql/schema.ts";
import { describeEachDriver, graphql, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/**
 * The change feed's largest page (1,000 rows, the REST maximum) is usable over /graphql
 * with every field of every record, and still only once per request (docs/security.md).
 */

describeEachDriver("change feed cost over GraphQL", (driver) => {
  const { app, make } = useTestApp(driver);

  test("changes(limit: 1000) with every record field answers 1,000 rows; REST answers the same", async () => {
    const { key } = await make.member({ scopes: ["equipment:read", "equipment:write"] });
    for (let batch = 0; batch < 10; batch++) {
      const items = Array.from({ length: 100 }, (_, n) => ({
        name: `Feed laptop ${batch * 100 + n}`,
        type: "laptop",
      }));
      const created = await send(app, "/api/v1/equipments/bulk-create", { key, body: { items } });
      expect(created.status, "bulk creation").toBe(201);
    }
    // the REST route's own operation: every field of Ticket, Alert and Equipment
    const { response, json } = await graphql(app, key, ListChangesDocument.toString(), {
      limit: 1000,
    });
    expect(json.errors, JSON.stringify(json.errors)).toBeUndefined();
    expect(response.status).toBe(200);
    expect(json.data.changes.data).toHaveLength(1000);
    expect(json.data.changes.hasMore, "exactly the 1,000 rows written").toBe(false);
    const rest = await getJson(app, "/api/v1/changes?limit=1000", key);
    expect(rest.body.data.map((change: { id: string }) => change.id)).toEqual(
      json.data.changes.data.map((change: { id: string }) => change.id),
    );
  });

  test("two full pages in one request are over the cost limit, and refused unread", async () => {
    const { key } = await make.member({ scopes: ["tickets:read"] });
    const page = "changes(limit: 1000) { data { id op record { ... on Ticket { id title } } } }";
    const { response, json } = await graphql(app, key, `{ a: ${page} b: ${page} }`);
    expect(response.status).toBe(400);
    expect(json.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(json.data, "nothing was executed").toBeUndefined();
    const half = "changes(limit: 400) { data { id } }";
    const two = await graphql(app, key, `{ a: ${half} b: ${half} }`);
    expect(two.json.errors, "two smaller pages fit").toBeUndefined();
  });
});

test("a change row holds only scalar fields, which is what lets it be counted as a row", () => {
  // fieldCost counts a change-feed row at GRAPHQL_LIMITS.changeRowCost whatever its selection:
  // a list or object field added to Change or to a record type would be work per row that
  // the cost no longer sees; count it (src/graphql/limits.ts) before changing this test
  const schema = buildSchema([]);
  const change = schema.getType("Change");
  if (!isObjectType(change)) throw new Error("Change is not an object type");
  const nonLeaf: string[] = [];
  for (const field of Object.values(change.getFields())) {
    const type = getNamedType(field.type);
    if (field.name === "record" && isUnionType(type)) {
      for (const member of type.getTypes()) {
        for (const memberField of Object.values(member.getFields())) {
          if (!isLeafType(getNamedType(memberField.type)) || memberField.args.length > 0) {
            nonLeaf.push(`${member.name}.${memberField.name}`);
          }
        }
      }
    } else if (!isLeafType(type)) nonLeaf.push(`Change.${field.name}`);
  }
  expect(nonLeaf).toEqual([]);
  expect(GRAPHQL_LIMITS.changeRowCost * 1000, "one full page fits the cost limit").toBeLessThan(
    GRAPHQL_LIMITS.maxCost - 100,
  );
  expect(GRAPHQL_LIMITS.changeRowCost * 2000, "two do not").toBeGreaterThan(GRAPHQL_LIMITS.maxCost);
});
