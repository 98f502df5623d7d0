import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { auditor, readLog, sendRecorded } from "./helpers.ts";

/** Bad filters, cursors and ranges: a 400 naming the field, in the contract's error format. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  const problems = async (key: string, path: string) => {
    const response = await send(app, path, { key });
    return { status: response.status, body: await response.json() };
  };

  test("each bad filter is a 400 naming its query parameter", async () => {
    const { key } = await auditor(make);
    const cases: [string, string][] = [
      ["from=yesterday", "from"],
      ["from=2026-13-45T00:00:00Z", "from"],
      ["to=2026-05-01T10:00", "to"], // no zone
      ["from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z", "to"],
      ["route=/api/v1/tickets/123", "route"],
      ["route=/nowhere", "route"],
      ["statusClass=200", "statusClass"],
      ["statusClass=6xx", "statusClass"],
      ["keyId=not-a-uuid", "keyId"],
      ["userId=42", "userId"],
      ["ip=300.1.1.1", "ip"],
      ["after=bm90LWEtY3Vyc29y", "after"],
      ["after=%E2%9C%93", "after"],
      ["limit=0", "limit"],
      ["limit=201", "limit"],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await problems(key, `/api/v1/audit-log?${query}`);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.error, query).toBe("Validation failed");
      expect(
        body.details.map((d: { path: string[] }) => d.path.join(".")),
        query,
      ).toContain(field);
    }
  });

  test("several bad fields are all named in one answer", async () => {
    const { key } = await auditor(make);
    const { status, body } = await problems(
      key,
      "/api/v1/audit-log?from=soon&statusClass=9xx&keyId=x",
    );
    expect(status).toBe(400);
    expect(body.details.map((d: { path: string[] }) => d.path[0]).sort()).toEqual([
      "from",
      "keyId",
      "statusClass",
    ]);
  });

  test("GraphQL names the filter's field in the error's details", async () => {
    const { key } = await auditor(make);
    const { json } = await graphql(
      app,
      key,
      `{ auditLog(filter: { statusClass: "2XY", from: "2026-01-01T00:00:00Z", to: "2025-01-01T00:00:00Z" }) { data { id } } }`,
    );
    const error = json.errors?.[0];
    expect(error.extensions.code).toBe("VALIDATION_FAILED");
    expect(error.extensions.details.map((d: { path: string[] }) => d.path.join("."))).toEqual([
      "filter.statusClass",
      "filter.to",
    ]);
  });

  test("the export needs both ends, in order, at most 31 days apart", async () => {
    const { key } = await auditor(make);
    const cases: [string, string][] = [
      ["", "from"],
      ["from=2026-05-01T00:00:00Z", "to"],
      ["to=2026-05-01T00:00:00Z", "from"],
      ["from=2026-05-01T00:00:00Z&to=2026-06-02T00:00:01Z", "to"],
      ["from=2026-05-03T00:00:00Z&to=2026-05-01T00:00:00Z", "to"],
      ["from=May&to=2026-05-01T00:00:00Z", "from"],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await problems(key, `/api/v1/audit-log/export?${query}`);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(
        body.details.map((d: { path: string[] }) => d.path.join(".")),
        query,
      ).toContain(field);
    }
  });

  test("a refused read is itself in the trail with its 400", async () => {
    const reader = await auditor(make);
    await sendRecorded(app, "/api/v1/audit-log?limit=0", { key: reader.key });
    const { json } = await readLog(app, reader.key, "?route=/api/v1/audit-log&statusClass=4xx");
    expect(json.data.map((e: { status: number }) => e.status)).toEqual([400]);
  });
}

describeEachDriver("audit trail: bad input", suite);
