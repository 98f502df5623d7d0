import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { OrgitApp } from "../../src/app.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { buildTestApp, type FreshDatabase, factories, freshDatabase } from "../helpers/harness.ts";
import { freePort } from "../helpers/service-process.ts";
import { memberWithPassword, PASSWORD } from "../helpers/settings.ts";

// a real Chromium, and a password hash at OWASP's scrypt cost on sign-in
setDefaultTimeout(180_000);

/**
 * Rotation and IP allowlists on the settings screen in a real browser (docs/settings.md),
 * against the service listening on 127.0.0.1: what a member clicks, and what the API then
 * accepts or refuses with each secret.
 */
describe("key rotation and allowlists in a browser", () => {
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

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${SCREENSHOT_DIR}key-security-${name}.png`, fullPage: true });
  const whoami = async (secret: string) =>
    (await fetch(`${base}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } }))
      .status;
  const row = (page: Page, status: string) =>
    page.locator('[data-testid="api-key-row"]', {
      has: page.locator(`[data-testid="key-status"]:text-is("${status}")`),
    });

  test("create with an allowlist, widen it, rotate with a grace: both secrets, then the old one's use", async () => {
    const make = factories(app);
    const org = await make.organization({ name: "Acme", plan: "PRO" });
    const admin = await memberWithPassword(app, make, org.id, "admin");
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: base })
    ).newPage();
    await page.goto("/login");
    await page.getByTestId("login-email").fill(admin.email);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/api-keys");

    // a key allowed only from a documentation network: this machine (127.0.0.1) is refused
    await page.getByTestId("key-name").fill("Nightly backup");
    await page.getByTestId("key-scope-tickets:read").check();
    await page.getByTestId("key-expiration").selectOption("DAYS_30");
    await page.getByTestId("key-allowed-ips").fill("203.0.113.0/24");
    await page.getByTestId("key-create").click();
    await page.waitForURL(`**/settings/api-keys?org=${org.id}`);
    const first = await page.getByTestId("new-key-secret").inputValue();
    expect(await page.getByTestId("key-allowlist").textContent()).toBe("Only from 203.0.113.0/24");
    expect(await whoami(first), "refused from 127.0.0.1").toBe(403);

    // a bad line is named and changes nothing; then 127.0.0.1 is added
    await page.getByTestId("key-allowlist-edit").click();
    await page.getByTestId("key-allowed-ips").fill("203.0.113.0/24\n127.0.0.1/8");
    await page.getByTestId("allowlist-save").click();
    await page.waitForLoadState();
    expect(await page.getByRole("alert").textContent()).toContain(
      "IP allowlist: Not an IPv4 or IPv6",
    );
    expect(await whoami(first)).toBe(403);
    await page.getByTestId("key-allowed-ips").fill("203.0.113.0/24\n127.0.0.1");
    await page.getByTestId("allowlist-save").click();
    await page.waitForURL("**/settings/api-keys?org=*allowlist=saved");
    expect(await page.getByRole("status").textContent()).toContain("IP allowlist saved.");
    expect(await whoami(first), "allowed now").toBe(200);
    await shot(page, "allowlist");

    // rotate with a one-hour grace, after a confirmation
    await page.getByTestId("key-rotate").click();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe(
      "Rotate “Nightly backup”?",
    );
    await page.getByTestId("rotate-grace").selectOption("3600");
    await page.getByTestId("key-rotate-confirm").click();
    await page.waitForURL("**/settings/api-keys?org=*rotated=*");
    const second = await page.getByTestId("new-key-secret").inputValue();
    expect(second).toMatch(/^orgit_[0-9A-Za-z]{40}$/);
    expect(second).not.toBe(first);
    expect(await page.getByRole("status").first().textContent()).toContain(
      "Key “Nightly backup” rotated.",
    );
    await shot(page, "rotated");
    expect(await whoami(second), "the new secret, with the same allowlist").toBe(200);
    expect(await whoami(first), "the old secret in its grace").toBe(200);

    // the old secret's use shows on its row after the next flush
    await app.services.keys.flushLastUsed();
    await page.reload();
    expect(await page.getByTestId("new-key-secret").count(), "the secret is shown once").toBe(0);
    const old = row(page, "rotated");
    expect(await old.getByTestId("key-grace").textContent()).toContain("Old secret works until");
    expect(await old.getByTestId("key-grace-use").textContent()).toBe(
      "old secret last used just now from 127.0.0.1",
    );
    expect(await row(page, "active").getByTestId("key-allowlist").textContent()).toBe(
      "Only from 203.0.113.0/24, 127.0.0.1",
    );
    await shot(page, "old-secret-use");
  });
});
