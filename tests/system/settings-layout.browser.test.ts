import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import type { OrgitApp } from "../../src/app.ts";
import { apiKeys } from "../../src/db/schema/index.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { buildTestApp, type FreshDatabase, factories, freshDatabase } from "../helpers/harness.ts";
import { freePort, ROOT } from "../helpers/service-process.ts";
import { memberWithPassword, PASSWORD } from "../helpers/settings.ts";

// a real Chromium, and a password hash at OWASP's scrypt cost
setDefaultTimeout(180_000);

/**
 * The API-key page at a phone's, two tablets' and a desktop's width: nothing overflows
 * sideways, choices are big enough to tap, dates read as dates. The screenshots in
 * docs/settings.md are taken here, on a fixed clock and fixed key prefixes, so they show the
 * page as it is and come out the same on every run.
 */
const WIDTHS = [390, 768, 820, 1280] as const;
const NOW = new Date("2026-11-26T09:00:00.000Z");
const DOCS_SCREENSHOTS = `${ROOT}docs/screenshots/`;

describe("API-key page layout in a browser", () => {
  let db: FreshDatabase;
  let app: OrgitApp;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let base: string;
  let adminEmail: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    db = await freshDatabase("pglite");
    app = await buildTestApp(db.database, { env: { PUBLIC_BASE_URL: base }, now: () => NOW });
    server = Bun.serve({
      port,
      hostname: "127.0.0.1",
      fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
    });
    browser = await launchBrowser();
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true });

    const make = factories(app);
    const org = await make.organization({ name: "Acme", plan: "PRO" });
    const admin = await memberWithPassword(app, make, org.id, "admin", {
      firstName: "Ada",
      lastName: "Admin",
    });
    adminEmail = admin.email;
    const tech = await memberWithPassword(app, make, org.id, "technician", {
      firstName: "Tom",
      lastName: "Technician",
    });
    const keys = [
      {
        user: admin.id,
        name: "Backup script on srv-01",
        scopes: ["equipment:read", "tickets:read"],
        expiresIn: "DAYS_90",
      },
      {
        user: tech.id,
        name: "Helpdesk integration",
        scopes: ["tickets:read", "tickets:write", "alerts:read", "users:read"],
        expiresIn: "YEAR_1",
      },
      {
        user: admin.id,
        name: "Monitoring bridge",
        scopes: ["alerts:read", "alerts:write"],
        expiresIn: "NEVER",
      },
    ] as const;
    const { db: sql } = app.services.database;
    for (const [i, key] of keys.entries()) {
      const { apiKey } = await app.services.apiKeys.createApiKey({
        organizationId: org.id,
        userId: key.user,
        name: key.name,
        scopes: [...key.scopes],
        expiresIn: key.expiresIn,
      });
      // prefixes are random; the screenshots need the same page on every run
      await sql
        .update(apiKeys)
        .set({
          prefix: `orgit_${["Ab3d", "Qx7L", "m2Pz"][i]}`,
          lastUsedAt: i === 1 ? new Date("2026-11-25T16:42:00.000Z") : null,
        })
        .where(eq(apiKeys.id, apiKey.id));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop(true);
    await app?.stop();
    await db?.drop();
  });

  test("at 390, 768, 820 and 1280 px: no sideways scroll, 44 px choices, human dates", async () => {
    const context = await browser.newContext({
      baseURL: base,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByTestId("login-email").fill(adminEmail);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/api-keys");

    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/settings/api-keys");
      const overflow = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(overflow.scroll, `no horizontal scroll at ${width} px`).toBeLessThanOrEqual(
        overflow.client,
      );
      for (const name of ["Backup script on srv-01", "Helpdesk integration", "Monitoring bridge"]) {
        const revoke = page.locator(`[data-key-name="${name}"] [data-testid="key-revoke"]`);
        const box = await revoke.boundingBox();
        expect(box, `the Revoke link of ${name} is on screen at ${width} px`).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      }
      const choice = await page
        .getByTestId("key-scope-tickets:read")
        .locator("xpath=..")
        .boundingBox();
      expect(
        choice?.height ?? 0,
        `a scope choice is at least 44 px tall at ${width} px`,
      ).toBeGreaterThanOrEqual(44);
      await page.screenshot({
        path: `${DOCS_SCREENSHOTS}settings-api-keys-${width}.png`,
        fullPage: true,
      });
    }

    const expires = page.locator(
      '[data-key-name="Helpdesk integration"] td[data-label="Expires"] time',
    );
    expect(await expires.textContent(), "a date a person reads").toBe("Nov 26, 2027");
    expect(await expires.getAttribute("title"), "the exact moment on hover").toBe(
      "2027-11-26 09:00 UTC",
    );
    expect(
      await page
        .locator('[data-key-name="Monitoring bridge"] td[data-label="Expires"]')
        .textContent(),
    ).toBe("Never");
    expect(
      await page.getByRole("heading", { level: 2, name: "All API keys in Acme" }).isVisible(),
    ).toBe(true);
    const group = page.getByRole("group", { name: "Tickets" });
    expect(
      await group.getByText("Support tickets: read them, create and update them").isVisible(),
    ).toBe(true);
    expect(await page.getByTestId("key-expiration").inputValue(), "90 days unless chosen").toBe(
      "DAYS_90",
    );
    await context.close();
  });
});
