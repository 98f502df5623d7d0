import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { call } from "../helpers/lifecycle.ts";

/** Moving an alert needs alerts:write AND alerts.manage; reading one alerts:read AND alerts.view. */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  async function alertOf(organizationId: string, ip: string) {
    await app.services.operator.addIngestSource({ organizationId, cidr: `${ip}/32` });
    const ingested = await send(app, "/api/v1/alerts/ingest", {
      method: "POST",
      peer: ip,
      body: { source: "nagios", title: "Disk full" },
    });
    return (await ingested.json()).ids[0] as string;
  }

  test("without alerts:write → 403 Missing scope; without alerts:read → 403 on GET", async () => {
    const reader = await make.member({ scopes: ["alerts:read"] });
    const id = await alertOf(reader.organizationId, "127.0.5.1");
    for (const move of ["acknowledge", "resolve", "reopen"]) {
      const answer = await call(app, `/api/v1/alerts/${id}/${move}`, { key: reader.key, body: {} });
      expect({ move, ...answer.body, status: answer.status }).toEqual({
        move,
        status: 403,
        error: "Missing scope: alerts:write",
      });
    }
    const writer = await make.member({
      scopes: ["alerts:write"],
      organizationId: reader.organizationId,
    });
    const read = await call(app, `/api/v1/alerts/${id}`, { key: writer.key });
    expect(read).toMatchObject({ status: 403, body: { error: "Missing scope: alerts:read" } });
    expect((await call(app, `/api/v1/alerts/${id}`, { key: reader.key })).body.status).toBe("open");
  });

  test("a role with alerts.view but not alerts.manage → 403 Missing permission: alerts.manage", async () => {
    const admin = await make.member({ scopes: ["alerts:read"] });
    await make.role(admin.organizationId, "watcher", "TECHNICIAN", ["alerts.view"]);
    const watcher = await make.member({
      scopes: ["alerts:read", "alerts:write"],
      role: "watcher",
      organizationId: admin.organizationId,
    });
    const id = await alertOf(admin.organizationId, "127.0.5.2");
    expect((await call(app, `/api/v1/alerts/${id}`, { key: watcher.key })).status).toBe(200);
    const answer = await call(app, `/api/v1/alerts/${id}/acknowledge`, {
      key: watcher.key,
      body: {},
    });
    expect(answer).toMatchObject({
      status: 403,
      body: { error: "Missing permission: alerts.manage" },
    });
  });
}

describeEachDriver("alert moves: who may", suite);
