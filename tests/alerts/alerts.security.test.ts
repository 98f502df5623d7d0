import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { alerts } from "../../src/db/schema/index.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { getJson, graphqlError } from "../helpers/lists.ts";

const INGEST = "/api/v1/alerts/ingest";
const LIST = "/api/v1/alerts";
const QUERY = "{ alerts { data { id } } }";
const ALERT = { source: "probe", title: "Something happened" };

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const storedFor = async (organizationId: string) =>
    db.database.db.select().from(alerts).where(eq(alerts.organizationId, organizationId));

  async function monitored(cidr: string, plan: "PRO" | "FREE" = "PRO") {
    const member = await make.member({ plan, scopes: ["alerts:read"] });
    await app.services.operator.addIngestSource({ organizationId: member.organizationId, cidr });
    return member;
  }

  test("an address in no ingest source → 403 IP not allowed, nothing stored", async () => {
    const { organizationId } = await monitored("198.51.100.0/25");
    for (const peer of ["198.51.100.128", "203.0.113.9", "::1", "2001:db8::1"]) {
      const response = await send(app, INGEST, { method: "POST", body: ALERT, peer });
      expect({ peer, status: response.status }).toEqual({ peer, status: 403 });
      expect(await response.json()).toEqual({ error: "IP not allowed" });
    }
    // the address is checked before the body: a bad body from outside is still 403
    const bad = await send(app, INGEST, {
      method: "POST",
      body: { title: "" },
      peer: "203.0.113.9",
    });
    expect(bad.status).toBe(403);
    expect(await bad.json()).toEqual({ error: "IP not allowed" });
    expect(await storedFor(organizationId)).toHaveLength(0);
  });

  test("a spoofed X-Forwarded-For from an untrusted peer does not get in", async () => {
    const { organizationId } = await monitored("192.0.2.0/24");
    for (const forwarded of ["192.0.2.10", "192.0.2.10, 192.0.2.11", "1.2.3.4, 192.0.2.10"]) {
      const response = await send(app, INGEST, {
        method: "POST",
        body: ALERT,
        peer: "203.0.113.50",
        headers: { "x-forwarded-for": forwarded, "x-real-ip": "192.0.2.10" },
      });
      expect({ forwarded, status: response.status }).toEqual({ forwarded, status: 403 });
      expect(await response.json()).toEqual({ error: "IP not allowed" });
    }
    expect(await storedFor(organizationId)).toHaveLength(0);
  });

  test("behind a TRUST_PROXY proxy the forwarded client address decides, not the proxy's", async () => {
    const { organizationId } = await monitored("198.19.0.0/24");
    // the proxy's own network is an ingest source too: it must not let every client in
    await monitored("10.0.0.0/24");
    const proxied = await buildTestApp(db.database, { env: { TRUST_PROXY: "10.0.0.1" } });
    try {
      const via = (forwarded: string) =>
        send(proxied, INGEST, {
          method: "POST",
          body: ALERT,
          peer: "10.0.0.1",
          headers: { "x-forwarded-for": forwarded },
        });
      const allowed = await via("198.19.0.77");
      expect(allowed.status).toBe(202);
      const [created] = (await allowed.json()).ids;
      expect((await storedFor(organizationId)).map((a) => a.id)).toEqual([created]);
      // the client spoofs a hop to the left; the proxy appended its real address
      expect((await via("198.19.0.77, 203.0.113.5")).status).toBe(403);
      // the same forwarded header from a peer that is not the trusted proxy is ignored
      const direct = await send(proxied, INGEST, {
        method: "POST",
        body: ALERT,
        peer: "203.0.113.5",
        headers: { "x-forwarded-for": "198.19.0.77" },
      });
      expect(direct.status).toBe(403);
    } finally {
      await proxied.stop();
    }
  });

  test("an IPv4-mapped IPv6 peer counts as its IPv4 address", async () => {
    const { organizationId } = await monitored("100.100.0.0/16");
    const response = await send(app, INGEST, {
      method: "POST",
      body: ALERT,
      peer: "::ffff:100.100.1.2",
    });
    expect(response.status).toBe(202);
    expect(await storedFor(organizationId)).toHaveLength(1);
  });

  test("the matching source names the organization; the most specific network wins", async () => {
    const wide = await monitored("172.16.0.0/12");
    const narrow = await monitored("172.16.5.0/24");
    const toNarrow = await send(app, INGEST, { method: "POST", body: ALERT, peer: "172.16.5.9" });
    const toWide = await send(app, INGEST, { method: "POST", body: ALERT, peer: "172.17.0.1" });
    expect([toNarrow.status, toWide.status]).toEqual([202, 202]);
    expect(await storedFor(narrow.organizationId)).toHaveLength(1);
    expect(await storedFor(wide.organizationId)).toHaveLength(1);
    // each organization lists only its own
    const listed = (await getJson(app, LIST, narrow.key)).body;
    expect(listed.pagination.total).toBe(1);
    expect(listed.data[0].id).toBe((await toNarrow.json()).ids[0]);
  });

  test("an ingest source of a FREE organization → 403 API access requires the Pro plan", async () => {
    const { organizationId } = await monitored("198.18.200.0/24", "FREE");
    const response = await send(app, INGEST, { method: "POST", body: ALERT, peer: "198.18.200.1" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "API access requires the Pro plan" });
    expect(await storedFor(organizationId)).toHaveLength(0);
  });

  test("a key does not open ingest: only the address counts", async () => {
    const { key } = await make.member({ scopes: ["alerts:read", "alerts:write"] });
    const response = await send(app, INGEST, {
      method: "POST",
      body: ALERT,
      key,
      peer: "203.0.113.200",
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "IP not allowed" });
  });

  test("GET /api/v1/alerts: no key 401, missing scope, missing permission, FREE plan", async () => {
    expect(await getJson(app, LIST)).toMatchObject({
      status: 401,
      body: { error: "Missing API key" },
    });
    const noScope = await make.member({ scopes: ["tickets:read"] });
    expect(await getJson(app, LIST, noScope.key)).toMatchObject({
      status: 403,
      body: { error: "Missing scope: alerts:read" },
    });
    expect(await graphqlError(app, noScope.key, QUERY)).toMatchObject({
      status: 403,
      message: "Missing scope: alerts:read",
    });
    const org = await make.organization();
    await make.role(org.id, "no-alerts", "TECHNICIAN", ["tickets.view_all"]);
    const noPermission = await make.member({
      organizationId: org.id,
      role: "no-alerts",
      scopes: ["alerts:read"],
    });
    expect(await getJson(app, LIST, noPermission.key)).toMatchObject({
      status: 403,
      body: { error: "Missing permission: alerts.view" },
    });
    expect(await graphqlError(app, noPermission.key, QUERY)).toMatchObject({
      status: 403,
      message: "Missing permission: alerts.view",
    });
    const free = await make.member({ plan: "FREE", scopes: ["alerts:read"] });
    expect(await getJson(app, LIST, free.key)).toMatchObject({
      status: 403,
      body: { error: "API access requires the Pro plan" },
    });
  });

  test("another organization's alerts are never listed nor counted (REST and GraphQL)", async () => {
    const mine = await make.member({ scopes: ["alerts:read"] });
    const theirs = await make.member({ scopes: ["alerts:read"] });
    await db.database.db.insert(alerts).values([
      { organizationId: mine.organizationId, source: "s", title: "mine" },
      { organizationId: theirs.organizationId, source: "s", title: "theirs" },
      { organizationId: theirs.organizationId, source: "s", title: "theirs too" },
    ]);
    const { body } = await getJson(app, LIST, mine.key);
    expect(body.data.map((a: { title: string }) => a.title)).toEqual(["mine"]);
    expect(body.pagination.total).toBe(1);
    const { json } = await graphql(
      app,
      mine.key,
      "{ alerts { data { title } pagination { total } } }",
    );
    expect(json.data.alerts).toEqual({ data: [{ title: "mine" }], pagination: { total: 1 } });
  });
}

describeEachDriver("alerts (security)", suite);
