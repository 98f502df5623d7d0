import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser } from "playwright-core";
import type { OrgitApp } from "../../src/app.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { buildTestApp, type FreshDatabase, factories, freshDatabase } from "../helpers/harness.ts";
import { freePort } from "../helpers/service-process.ts";
import { memberWithPassword, PASSWORD } from "../helpers/settings.ts";
import { eventually } from "../helpers/wait.ts";

// a real Chromium, and a password hash at OWASP's scrypt cost on the sign-in
setDefaultTimeout(180_000);

/** A key's usage view in a real browser (docs/settings.md): reached from the list, drawn as SVG. */
describe("key usage view in a browser", () => {
  let db: FreshDatabase;
  let app: OrgitApp;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await freshDatabase("pglite");
    app = await buildTestApp(db.database, { env: { PUBLIC_BASE_URL: base } });
    server = Bun.serve({
      port,
      hostname: "127.0.0.1",
      fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
    });
    browser = await launchBrowser();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop(true);
    await app?.stop();
    await db?.drop();
  });

  test("the owner opens Usage from the key list: last use, 24 h, the 30-day chart and its table, nothing from elsewhere", async () => {
    const make = factories(app);
    const org = await make.organization({ plan: "PRO" });
    const owner = await memberWithPassword(app, make, org.id, "technician");
    const { apiKey, secret } = await app.services.apiKeys.createApiKey({
      organizationId: org.id,
      userId: owner.id,
      name: "Nightly export",
      scopes: ["tickets:read"],
      expiresIn: "NEVER",
    });
    const stats = app.services.auditTrail.stats;
    const before = stats.received;
    for (let i = 0; i < 4; i++) {
      const answer = await fetch(`${base}/api/v1/whoami`, {
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(answer.status).toBe(200);
    }
    await eventually(() => stats.received >= before + 4, "the four requests in the trail");
    await app.services.auditTrail.flush();

    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: base,
    });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(base)) elsewhere.push(request.url());
    });
    await page.goto("/login");
    await page.getByTestId("login-email").fill(owner.email);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/api-keys");

    await page.getByRole("link", { name: "Usage of Nightly export" }).click();
    await page.waitForURL(`**/settings/api-keys/${apiKey.id}/usage`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Usage of “Nightly export”",
    );
    expect(await page.getByTestId("usage-24h").textContent()).toBe("4");
    expect(await page.getByTestId("usage-last-ip").textContent()).toBe("127.0.0.1");
    const chart = page.getByRole("img", {
      name: /Requests per day, \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d/,
    });
    expect(await chart.isVisible()).toBe(true);
    const box = await chart.boundingBox();
    expect(box?.width ?? 0, "the chart spans the card").toBeGreaterThan(300);
    // the numbers: hidden on screen, present for assistive technology
    const table = page.getByRole("table", { name: "Requests per day (UTC)" });
    expect(await table.getByRole("row").count()).toBe(31); // a header row and 30 days
    expect(await table.getByRole("row").last().textContent()).toContain("4");
    await page.screenshot({ path: `${SCREENSHOT_DIR}settings-key-usage.png`, fullPage: true });
    expect(elsewhere, "no request leaves the service").toEqual([]);
    await context.close();
  });
});
