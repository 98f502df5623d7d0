import { expect, setDefaultTimeout, test } from "bun:test";
import { DAY_MS } from "../../src/db/queries/audit-partitions.ts";
import { AuditMaintenance } from "../../src/modules/audit/maintenance.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";
import { sendRecorded } from "./helpers.ts";

// a sign-in hashes a password at OWASP's scrypt cost (about a second, more under load)
setDefaultTimeout(120_000);

/** The settings screen's usage of one key (docs/settings.md): last use, 24 h, a 30-day chart. */
function suite(driver: DriverName) {
  const clock = manualClock(Date.UTC(2026, 4, 20, 9, 30, 0));
  const { app, make } = useTestApp(driver, { now: clock.now });

  const keyFor = (organizationId: string, userId: string, name: string) =>
    app.services.apiKeys.createApiKey({
      organizationId,
      userId,
      name,
      scopes: ["tickets:read"],
      expiresIn: "NEVER",
    });

  test("the owner sees last use (time and address), the last 24 h and 30 days drawn as SVG with the numbers in a table", async () => {
    const org = await make.organization({ plan: "PRO" });
    const owner = await memberWithPassword(app, make, org.id, "technician");
    const stranger = await memberWithPassword(app, make, org.id, "technician");
    const { apiKey, secret } = await keyFor(org.id, owner.id, "Backup script");
    const { apiKey: othersKey } = await keyFor(org.id, stranger.id, "Not yours");
    // two days ago: 3 requests; today: 2, the last one from 203.0.113.7
    clock.advance(-2 * DAY_MS);
    for (let i = 0; i < 3; i++) await sendRecorded(app, "/api/v1/whoami", { key: secret });
    clock.advance(2 * DAY_MS);
    await sendRecorded(app, "/api/v1/whoami", { key: secret, peer: "198.51.100.4" });
    clock.advance(60_000);
    await sendRecorded(app, "/api/v1/tickets", { key: secret, peer: "203.0.113.7" });
    await app.services.auditTrail.flush();

    const browser = pageClient(app);
    expect((await browser.signIn(owner.email)).status).toBe(303);
    const list = await (await browser.get(`/settings/api-keys?org=${org.id}`)).text();
    expect(list).toContain(`/settings/api-keys/${apiKey.id}/usage`);

    const page = await browser.get(`/settings/api-keys/${apiKey.id}/usage`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
    const body = await page.text();
    expect(body).toContain("Usage of “Backup script”");
    expect(body).toMatch(
      /data-testid="usage-last-used"><time datetime="2026-05-20T09:31:00.000Z">2026-05-20 09:31 UTC/,
    );
    expect(body).toContain('data-testid="usage-last-ip">203.0.113.7<');
    expect(body).toContain('data-testid="usage-24h">2<');
    expect(body).toContain('<svg class="usage-chart"');
    expect(body).toContain('role="img" aria-labelledby="usage-chart-title usage-chart-desc"');
    expect(body).toContain("Requests per day, 2026-04-21 to 2026-05-20");
    expect(body).toContain("5 requests over 30 days; the busiest day had 3.");
    expect(body).not.toMatch(/<script(?! src="\/assets\/)/);
    expect(body).not.toMatch(/https?:\/\/(?!localhost)/);
    const rows = [...body.matchAll(/<tr><th scope="row">([\d-]+)<\/th><td>(\d+)<\/td><\/tr>/g)];
    expect(rows).toHaveLength(30);
    expect(
      Object.fromEntries(rows.filter((r) => r[2] !== "0").map((r) => [r[1], Number(r[2])])),
    ).toEqual({
      "2026-05-18": 3,
      "2026-05-20": 2,
    });
    expect((body.match(/<rect /g) ?? []).length).toBe(30);

    // another member's key, a made-up id and no session
    expect((await browser.get(`/settings/api-keys/${othersKey.id}/usage`)).status).toBe(404);
    expect((await browser.get(`/settings/api-keys/${crypto.randomUUID()}/usage`)).status).toBe(404);
    expect((await browser.get("/settings/api-keys/not-an-id/usage")).status).toBe(404);
    const anonymous = await pageClient(app).get(`/settings/api-keys/${apiKey.id}/usage`);
    expect([anonymous.status, anonymous.headers.get("location")]).toEqual([303, "/login"]);
  });

  test("the 24 h count is exact to the request at its edge, and a FREE plan's counts leave with its rows", async () => {
    const org = await make.organization({ plan: "FREE" });
    const owner = await memberWithPassword(app, make, org.id, "technician");
    const { apiKey, secret } = await keyFor(org.id, owner.id, "Edge");
    const now = clock.now().getTime();
    const HOUR = 3_600_000;
    // the 24 h start in the middle of an hour: the requests just before and after it, one in
    // a whole hour after it, one now; and one 8 days ago, past FREE's 7 days
    for (const ago of [8 * DAY_MS, DAY_MS + 5 * 60_000, DAY_MS - 5 * 60_000, 23 * HOUR, 0]) {
      clock.advance(now - ago - clock.now().getTime());
      await sendRecorded(app, "/api/v1/whoami", { key: secret, peer: "192.0.2.10" });
    }
    clock.advance(now - clock.now().getTime());
    await app.services.auditTrail.flush();

    const browser = pageClient(app);
    expect((await browser.signIn(owner.email)).status).toBe(303);
    const counts = async () => {
      const body = await (await browser.get(`/settings/api-keys/${apiKey.id}/usage`)).text();
      const rows = [...body.matchAll(/<tr><th scope="row">([\d-]+)<\/th><td>(\d+)<\/td><\/tr>/g)];
      return {
        last24h: body.match(/data-testid="usage-24h">(\d+)</)?.[1],
        lastIp: body.match(/data-testid="usage-last-ip">([^<]+)</)?.[1],
        days: Object.fromEntries(
          rows.filter((r) => r[2] !== "0").map((r) => [r[1], Number(r[2])]),
        ) as Record<string, number>,
      };
    };
    const day = (ago: number) => new Date(now - ago).toISOString().slice(0, 10);
    const before = await counts();
    expect(before.last24h).toBe("3");
    expect(before.lastIp).toBe("192.0.2.10");
    expect(before.days[day(8 * DAY_MS)]).toBe(1);

    const maintenance = new AuditMaintenance(
      app.services.database,
      app.services.logger,
      clock.now,
      {
        checkMs: 0,
      },
    );
    expect((await maintenance.run()).deleted.FREE).toBeGreaterThan(0);
    const after = await counts();
    expect(after.days[day(8 * DAY_MS)]).toBeUndefined();
    expect(after.last24h).toBe("3");
    expect(Object.values(after.days).reduce((a, b) => a + b, 0)).toBe(4);
  });
}

describeEachDriver("audit trail: the settings usage page", suite);
