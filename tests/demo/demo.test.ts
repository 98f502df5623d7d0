import { beforeAll, expect, test } from "bun:test";
import { seedDemoQuietly } from "../helpers/demo.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * `npm run demo`'s data answers every example of the README's tour with something (an empty
 * list would look like a broken service to a new user).
 */
const README_EXAMPLES = [
  "/api/v1/whoami",
  "/api/v1/equipments?limit=10&status=online",
  "/api/v1/tickets?status=in_progress&priority=high",
  "/api/v1/alerts?status=open&severity=critical",
  "/api/v1/equipment-units",
  "/api/v1/groups",
  "/api/v1/users?limit=20",
  "/api/v1/agent-releases?platform=windows&channel=stable",
];

function suite(driver: DriverName) {
  const { app } = useTestApp(driver);
  let key: string;

  beforeAll(async () => {
    key = await seedDemoQuietly(app);
  });

  for (const path of README_EXAMPLES) {
    test(`GET ${path} answers 200 with data`, async () => {
      const response = await send(app, path, { key });
      expect(response.status).toBe(200);
      const body = await response.json();
      if (Array.isArray(body.data)) expect(body.data.length).toBeGreaterThan(0);
      else expect(body.organization.name).toBe("Acme Corp (demo)");
    });
  }

  test("the ingest example is accepted from 127.0.0.1, the address the demo listens on", async () => {
    const response = await send(app, "/api/v1/alerts/ingest", {
      body: { alerts: [{ source: "prometheus", externalId: "disk-1", title: "Disk above 95%" }] },
      peer: "127.0.0.1",
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ received: 1, created: 1 });
  });
}

describeEachDriver("demo data", suite);
