import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { alerts, equipment } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectStablePages, getJson } from "../helpers/lists.ts";

const INGEST = "/api/v1/alerts/ingest";

function suite(driver: DriverName) {
  const clock = Date.parse("2026-05-01T12:00:00Z");
  const { app, db, make } = useTestApp(driver, { now: () => new Date(clock) });

  /** an organization whose ingest source is `cidr`, with an alerts:read key */
  async function monitored(cidr: string) {
    const member = await make.member({ scopes: ["alerts:read"] });
    await app.services.operator.addIngestSource({ organizationId: member.organizationId, cidr });
    return member;
  }

  const ingest = async (body: unknown, peer: string) => {
    const response = await send(app, INGEST, { method: "POST", body, peer });
    return { status: response.status, body: await response.json() };
  };

  const stored = (organizationId: string) =>
    db.database.db.select().from(alerts).where(eq(alerts.organizationId, organizationId));

  test("a single alert from an allowed address → 202, stored with defaults, listed", async () => {
    const { key, organizationId } = await monitored("198.51.100.0/24");
    const result = await ingest({ source: "prometheus", title: "Disk full" }, "198.51.100.7");
    expect(result.status).toBe(202);
    expect(result.body).toEqual({
      received: 1,
      created: 1,
      duplicates: 0,
      ids: [expect.any(String)],
    });
    const list = await getJson(app, "/api/v1/alerts", key);
    expect(list.body).toEqual({
      data: [
        {
          id: result.body.ids[0],
          source: "prometheus",
          externalId: null,
          severity: "warning",
          status: "open",
          title: "Disk full",
          message: null,
          equipmentId: null,
          occurredAt: null,
          receivedAt: "2026-05-01T12:00:00.000Z",
        },
      ],
      pagination: { total: 1, limit: 50, offset: 0 },
    });
    expect(await stored(organizationId)).toHaveLength(1);
  });

  test("every field is kept: severity, message, externalId, equipmentId, occurredAt", async () => {
    const { key, organizationId } = await monitored("2001:db8:1::/48");
    const [device] = await db.database.db
      .insert(equipment)
      .values({ organizationId, name: "srv-01", type: "server" })
      .returning();
    const alert = {
      source: "zabbix",
      title: "CPU high",
      severity: "critical",
      message: "load 42",
      externalId: "cpu-1",
      equipmentId: device?.id,
      occurredAt: "2026-04-30T23:59:00+02:00",
    };
    const result = await ingest(alert, "2001:db8:1::5");
    expect(result.status).toBe(202);
    const [listed] = (await getJson(app, "/api/v1/alerts", key)).body.data;
    expect(listed).toMatchObject({
      ...alert,
      occurredAt: "2026-04-30T21:59:00.000Z",
      status: "open",
      id: result.body.ids[0],
    });
  });

  test("a batch of 100 in one call; ids in request order", async () => {
    const { organizationId } = await monitored("203.0.113.0/28");
    const batch = Array.from({ length: 100 }, (_, i) => ({ source: "batch", title: `Alert ${i}` }));
    const result = await ingest({ alerts: batch }, "203.0.113.2");
    expect(result.status).toBe(202);
    expect(result.body).toMatchObject({ received: 100, created: 100, duplicates: 0 });
    const rows = await stored(organizationId);
    const titleOf = new Map(rows.map((row) => [row.id, row.title]));
    expect(result.body.ids.map((id: string) => titleOf.get(id))).toEqual(batch.map((a) => a.title));
  });

  test("same source + externalId again is a duplicate: not stored, its id is the first one's", async () => {
    const { organizationId } = await monitored("192.0.2.0/24");
    const first = await ingest(
      { source: "kuma", externalId: "web-down", title: "Web down" },
      "192.0.2.1",
    );
    expect(first.body).toMatchObject({ created: 1, duplicates: 0 });
    const again = await ingest(
      {
        alerts: [
          { source: "kuma", externalId: "web-down", title: "Web down (repeat)" },
          { source: "kuma", externalId: "db-down", title: "DB down" },
          { source: "kuma", externalId: "db-down", title: "DB down (same batch)" },
          { source: "other", externalId: "web-down", title: "Same id, other source" },
          { source: "kuma", title: "No externalId is never a duplicate" },
          { source: "kuma", title: "No externalId is never a duplicate" },
        ],
      },
      "192.0.2.1",
    );
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ received: 6, created: 4, duplicates: 2 });
    const ids: string[] = again.body.ids;
    expect(ids[0]).toBe(first.body.ids[0]);
    expect(ids[2]).toBe(ids[1] as string);
    expect(new Set([ids[1], ids[3], ids[4], ids[5]]).size).toBe(4);
    const rows = await stored(organizationId);
    expect(rows).toHaveLength(5);
    expect(rows.find((row) => row.id === first.body.ids[0])?.title).toBe("Web down");
  });

  test("concurrent identical ingests store one alert; every answer names it", async () => {
    const { organizationId } = await monitored("192.0.2.128/25");
    const body = { source: "race", externalId: "same", title: "Once" };
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ingest(body, "192.0.2.200")),
    );
    const rows = await stored(organizationId);
    expect(rows).toHaveLength(1);
    for (const result of results) {
      expect(result.status).toBe(202);
      expect(result.body.ids).toEqual([rows[0]?.id]);
    }
    expect(results.filter((r) => r.body.created === 1)).toHaveLength(1);
  });

  test("GET /api/v1/alerts filters by status and severity, newest received first, stable pages", async () => {
    const { key, organizationId } = await monitored("100.64.0.0/24");
    const values = [
      ["info", "open"],
      ["warning", "acknowledged"],
      ["critical", "open"],
      ["critical", "resolved"],
      ["warning", "open"],
    ] as const;
    for (const [i, [severity, status]] of values.entries()) {
      await db.database.db.insert(alerts).values({
        organizationId,
        source: "seed",
        title: `${severity}/${status}`,
        severity,
        status,
        receivedAt: new Date(Date.UTC(2026, 0, 1 + i)),
      });
    }
    const titles = async (query: string) =>
      (await getJson(app, `/api/v1/alerts${query}`, key)).body.data.map(
        (a: { title: string }) => a.title,
      );
    expect(await titles("")).toEqual(values.map(([s, t]) => `${s}/${t}`).reverse());
    expect(await titles("?severity=critical")).toEqual(["critical/resolved", "critical/open"]);
    expect(await titles("?status=open")).toEqual(["warning/open", "critical/open", "info/open"]);
    expect(await titles("?status=open&severity=critical")).toEqual(["critical/open"]);
    const filtered = (await getJson(app, "/api/v1/alerts?status=open&limit=1", key)).body;
    expect(filtered.pagination).toEqual({ total: 3, limit: 1, offset: 0 });
    await expectStablePages(app, "/api/v1/alerts", key);
  });

  test("GraphQL alerts answers the same page as REST", async () => {
    const { key } = await monitored("100.64.1.0/24");
    await ingest({ source: "gql", title: "Seen twice", severity: "info" }, "100.64.1.1");
    const rest = (await getJson(app, "/api/v1/alerts?severity=info", key)).body;
    const { json } = await graphql(
      app,
      key,
      `{ alerts(severity: info) { data { id source externalId severity status title message
          equipmentId occurredAt receivedAt } pagination { total limit offset } } }`,
    );
    expect(json.data.alerts).toEqual(rest);
  });
}

describeEachDriver("alerts (happy)", suite);
