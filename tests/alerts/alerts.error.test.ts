import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { alerts, equipment } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectPageBounds, getJson } from "../helpers/lists.ts";

const INGEST = "/api/v1/alerts/ingest";
const PEER = "198.18.0.10";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);
  let organizationId = "";
  let key = "";

  const storedCount = async () =>
    (await db.database.db.select().from(alerts).where(eq(alerts.organizationId, organizationId)))
      .length;

  /** posts a body from the allowed address; raw strings are sent as they are */
  const ingest = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await send(app, INGEST, { method: "POST", body, peer: PEER, headers });
    return { status: response.status, body: await response.json() };
  };

  /** the body is refused with 400 and exactly these detail paths, and nothing is stored */
  const refused = async (body: unknown, paths: string[][]) => {
    const before = await storedCount();
    const result = await ingest(body);
    expect({ status: result.status, error: result.body.error }).toEqual({
      status: 400,
      error: "Validation failed",
    });
    expect(result.body.details.map((d: { path: string[] }) => d.path)).toEqual(paths);
    expect(await storedCount()).toBe(before);
    return result.body.details as { path: string[]; message: string }[];
  };

  const accepted = async (body: unknown) => {
    const result = await ingest(body);
    expect(result.status).toBe(202);
    return result.body;
  };

  // an organization with an ingest source, for every test (a hook, not a test: each test
  // must pass when run alone)
  beforeAll(async () => {
    const member = await make.member({ scopes: ["alerts:read"] });
    organizationId = member.organizationId;
    key = member.key;
    await app.services.operator.addIngestSource({ organizationId, cidr: "198.18.0.0/16" });
  });

  test("title 1 and 200 characters are accepted; 0 and 201 are refused", async () => {
    await accepted({ source: "s", title: "t" });
    await accepted({ source: "s", title: "é".repeat(200) });
    const [empty] = await refused({ source: "s", title: "" }, [["title"]]);
    expect(empty?.message).toBe("Must be 1 to 200 characters");
    await refused({ source: "s", title: "x".repeat(201) }, [["title"]]);
  });

  test("message up to 10000 characters; 10001 is refused", async () => {
    await accepted({ source: "s", title: "t", message: "m".repeat(10_000) });
    const [detail] = await refused({ source: "s", title: "t", message: "m".repeat(10_001) }, [
      ["message"],
    ]);
    expect(detail?.message).toBe("Must be 0 to 10000 characters");
  });

  test("batches of 1 and 100 are accepted; 0 and 101 are refused", async () => {
    const batch = (n: number) => ({
      alerts: Array.from({ length: n }, (_, i) => ({ source: "b", title: `#${i}` })),
    });
    expect((await accepted(batch(1))).received).toBe(1);
    expect((await accepted(batch(100))).received).toBe(100);
    const [zero] = await refused(batch(0), [["alerts"]]);
    expect(zero?.message).toBe("Must be an array of 1 to 100 alerts");
    await refused(batch(101), [["alerts"]]);
    await refused({ alerts: "many" }, [["alerts"]]);
  });

  test("source and title are required; every problem of every alert is listed at once", async () => {
    const details = await refused({}, [["source"], ["title"]]);
    expect(details.map((d) => d.message)).toEqual(["Required", "Required"]);
    await refused(
      {
        alerts: [
          { source: "ok", title: "ok" },
          { title: "no source" },
          "not an object",
          { source: "s", title: "t", severity: "fatal", occurredAt: "yesterday" },
        ],
      },
      [
        ["alerts", "1", "source"],
        ["alerts", "2"],
        ["alerts", "3", "severity"],
        ["alerts", "3", "occurredAt"],
      ],
    );
  });

  test("severity must be info, warning or critical", async () => {
    for (const severity of ["info", "warning", "critical"]) {
      await accepted({ source: "s", title: "t", severity });
    }
    for (const severity of ["fatal", "", "WARNING", 3]) {
      await refused({ source: "s", title: "t", severity }, [["severity"]]);
    }
  });

  test("occurredAt must be an ISO 8601 instant with a time zone", async () => {
    await accepted({ source: "s", title: "t", occurredAt: "2026-01-31T12:00:00Z" });
    await accepted({ source: "s", title: "t", occurredAt: "2026-01-31T12:00:00.123+05:30" });
    for (const occurredAt of [
      "yesterday",
      "2026-01-31",
      "2026-01-31T12:00:00",
      "2026-13-45T99:00:00Z",
      1700000000,
    ]) {
      await refused({ source: "s", title: "t", occurredAt }, [["occurredAt"]]);
    }
  });

  test("wrong types, an empty source and an over-long externalId name their fields", async () => {
    await refused({ source: 5, title: ["t"] }, [["source"], ["title"]]);
    await refused({ source: "", title: "t", externalId: "e".repeat(201) }, [
      ["source"],
      ["externalId"],
    ]);
    await refused({ source: "s", title: "t", equipmentId: "not-a-uuid" }, [["equipmentId"]]);
  });

  test("an unknown equipmentId, or one of another organization, → 400 Unknown equipment", async () => {
    const other = await make.organization();
    const [theirs] = await db.database.db
      .insert(equipment)
      .values({ organizationId: other.id, name: "theirs", type: "server" })
      .returning();
    const unknown = crypto.randomUUID();
    for (const equipmentId of [unknown, theirs?.id]) {
      const [detail] = await refused({ source: "s", title: "t", equipmentId }, [["equipmentId"]]);
      expect(detail?.message).toBe("Unknown equipment");
    }
    await refused(
      {
        alerts: [
          { source: "s", title: "ok" },
          { source: "s", title: "t", equipmentId: unknown },
        ],
      },
      [["alerts", "1", "equipmentId"]],
    );
  });

  test("malformed JSON, a JSON array or a string body → 400, nothing stored", async () => {
    const before = await storedCount();
    const malformed = await ingest('{"source": "s", "title":');
    expect(malformed).toEqual({ status: 400, body: { error: "Malformed JSON body" } });
    await refused([{ source: "s", title: "t" }], [["body"]]);
    await refused('"just a string"', [["body"]]);
    await refused("null", [["body"]]);
    expect(await storedCount()).toBe(before);
  });

  test("GET /api/v1/alerts: bad bounds and filters → 400 naming the field (REST and GraphQL)", async () => {
    await expectPageBounds(app, "/api/v1/alerts", key);
    for (const [query, field] of [
      ["status=closed", "status"],
      ["severity=fatal", "severity"],
      ["status=", "status"],
    ]) {
      const { status, body } = await getJson(app, `/api/v1/alerts?${query}`, key);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.details[0].path).toEqual([field]);
    }
    // over GraphQL the filters are enums: an unknown value is refused before any resolver runs
    const { json } = await graphql(app, key, "{ alerts(status: closed) { data { id } } }");
    expect(json.data).toBeUndefined();
    expect(json.errors?.[0]?.message).toBe('Value "closed" does not exist in "AlertStatus" enum.');
  });
}

describeEachDriver("alerts (error)", suite);
