import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import type { OrgitApp } from "../../src/app.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { buildTestApp, type FreshDatabase, factories, freshDatabase } from "../helpers/harness.ts";
import { freePort } from "../helpers/service-process.ts";
import { memberWithPassword, PASSWORD } from "../helpers/settings.ts";

// a real Chromium, and a password hash at OWASP's scrypt cost on every sign-in
setDefaultTimeout(180_000);

/**
 * The settings screen end to end, in a real browser against the service listening on
 * 127.0.0.1: what a member sees and clicks, and what the API then accepts or refuses.
 */
describe("settings screen in a browser", () => {
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
    // closing the browser closes its contexts (one process: @sparticuz/chromium runs --single-process)
    await browser?.close();
    await server?.stop(true);
    await app?.stop();
    await db?.drop();
  });

  async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport, baseURL: base });
    return context.newPage();
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: `${SCREENSHOT_DIR}settings-${name}.png`, fullPage: true });

  /** Submits by clicking and answers the status of the page the browser ends up on. */
  async function submit(page: Page, testId: string): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByTestId(testId).click(),
    ]);
    await page.waitForLoadState();
    const status = response.status();
    if (status !== 303) return status;
    const final = await page
      .waitForResponse((r) => r.request().method() === "GET")
      .catch(() => null);
    return final?.status() ?? 200;
  }

  async function signIn(page: Page, email: string, password = PASSWORD) {
    await page.goto("/login");
    await page.getByTestId("login-email").fill(email);
    await page.getByTestId("login-password").fill(password);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/api-keys");
  }

  const whoami = (secret: string) =>
    fetch(`${base}/api/v1/whoami`, { headers: { authorization: `Bearer ${secret}` } });

  const rows = (page: Page) => page.getByTestId("api-key-row");
  const row = (page: Page, name: string) =>
    page.locator(`[data-testid="api-key-row"][data-key-name="${name}"]`);

  test("the whole lifecycle: invitation, sign-in, create, use, revoke, admin, removal", async () => {
    const make = factories(app);
    const org = await make.organization({ name: "Acme", plan: "PRO" });
    const admin = await memberWithPassword(app, make, org.id, "admin", {
      firstName: "Ada",
      lastName: "Admin",
    });
    const tech = await make.user({ firstName: "Tom", lastName: "Tech" });
    await app.services.operator.addMember({
      organizationId: org.id,
      userId: tech.id,
      role: "technician",
    });

    // an invitation link: the member chooses a password and is signed in
    const { url } = await app.services.accounts.createInvitation(tech.id);
    const tom = await newPage();
    await tom.goto(url);
    await shot(tom, "invitation");
    await tom.getByTestId("invite-password").fill(PASSWORD);
    await tom.getByTestId("invite-password-confirm").fill(PASSWORD);
    await tom.getByTestId("invite-submit").click();
    await tom.waitForURL("**/settings/api-keys");
    expect(await tom.getByText("No keys yet.").isVisible()).toBe(true);
    const reused = await (await newPage()).goto(url);
    expect(reused?.status(), "an invitation works once").toBe(410);

    // create a key with two scopes and a 30-day expiration; the secret is shown once
    await tom.getByTestId("key-name").fill("CI pipeline");
    await tom.getByTestId("key-scope-tickets:read").check();
    await tom.getByTestId("key-scope-equipment:read").check();
    await tom.getByTestId("key-expiration").selectOption("DAYS_30");
    await tom.getByTestId("key-create").click();
    await tom.waitForURL(`**/settings/api-keys?org=${org.id}`);
    const secret = await tom.getByTestId("new-key-secret").inputValue();
    expect(secret).toMatch(/^orgit_[0-9A-Za-z]{40}$/);
    expect(
      await tom.getByTestId("copy-secret").isVisible(),
      "the copy script ran under the CSP",
    ).toBe(true);
    await shot(tom, "secret-shown");
    const phone = await tom
      .context()
      .browser()
      ?.newContext({
        viewport: { width: 390, height: 844 },
        baseURL: base,
        storageState: await tom.context().storageState(),
      });
    if (phone) {
      const small = await phone.newPage();
      await small.goto("/settings/api-keys");
      await shot(small, "list-phone");
    }

    const me = await whoami(secret);
    expect(me.status).toBe(200);
    const body = (await me.json()) as {
      apiKey: { name: string; scopes: string[]; expiresAt: string };
    };
    expect(body.apiKey.name).toBe("CI pipeline");
    expect(body.apiKey.scopes.sort()).toEqual(["equipment:read", "tickets:read"]);
    expect(Math.round((Date.parse(body.apiKey.expiresAt) - Date.now()) / 86_400_000)).toBe(30);

    // never shown again, and a reload creates nothing
    await tom.reload();
    expect(await tom.getByTestId("new-key-secret").count()).toBe(0);
    expect(await tom.content()).not.toContain(secret);
    expect(await rows(tom).count()).toBe(1);
    await tom.goBack();
    await tom.goForward();
    expect(await tom.content()).not.toContain(secret);
    expect(await rows(tom).count()).toBe(1);

    // a forged CSRF token is refused and changes nothing
    await tom.getByTestId("key-name").fill("forged");
    await tom.getByTestId("key-scope-users:read").check();
    await tom.evaluate(() => {
      for (const input of document.querySelectorAll<HTMLInputElement>('input[name="_csrf"]'))
        input.value = "forged";
    });
    expect(await submit(tom, "key-create")).toBe(403);
    expect(await tom.getByText("nothing was changed").isVisible()).toBe(true);
    await tom.goto("/settings/api-keys");
    expect(await rows(tom).count()).toBe(1);

    // revoke with a confirmation: the next API call is refused
    await row(tom, "CI pipeline").getByTestId("key-revoke").click();
    await shot(tom, "revoke-confirm");
    await tom.getByTestId("key-revoke-confirm").click();
    await tom.waitForURL("**/settings/api-keys?**");
    expect(await row(tom, "CI pipeline").getByTestId("key-status").textContent()).toBe("revoked");
    const refused = await whoami(secret);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "API key revoked" });

    // a second key of Tom's, for the admin to revoke
    await tom.getByTestId("key-name").fill("laptop");
    await tom.getByTestId("key-scope-equipment:read").check();
    await tom.getByTestId("key-create").click();
    await tom.waitForURL(`**/settings/api-keys?org=${org.id}`);
    const laptopSecret = await tom.getByTestId("new-key-secret").inputValue();

    // the admin sees every member's keys with their owner, and revokes Tom's
    const ada = await newPage();
    await signIn(ada, admin.email);
    await ada.getByTestId("key-name").fill("admin key");
    await ada.getByTestId("key-scope-users:read").check();
    await ada.getByTestId("key-create").click();
    await ada.waitForURL(`**/settings/api-keys?org=${org.id}`);
    expect(await row(ada, "laptop").getByTestId("key-owner").textContent()).toBe("Tom Tech");
    await shot(ada, "admin-list");
    await row(ada, "laptop").getByTestId("key-revoke").click();
    await ada.getByTestId("key-revoke-confirm").click();
    await ada.waitForURL("**/settings/api-keys?**");
    expect(await row(ada, "laptop").getByTestId("key-status").textContent()).toBe("revoked");
    expect((await whoami(laptopSecret)).status).toBe(401);

    // a technician never sees an admin's keys
    await tom.goto("/settings/api-keys");
    expect(await row(tom, "admin key").count()).toBe(0);
    expect(await tom.getByTestId("key-owner").count()).toBe(0);

    // removal from the organization ends the session at once
    await app.services.operator.removeMember(org.id, tech.id);
    await tom.goto("/settings/api-keys");
    expect(new URL(tom.url()).pathname).toBe("/login");
    expect(await tom.getByText("Your session has ended").isVisible()).toBe(true);

    // sign-out
    await ada.getByTestId("logout").click();
    await ada.waitForURL("**/login?signed_out");
    await ada.goto("/settings/api-keys");
    expect(new URL(ada.url()).pathname).toBe("/login");
  });

  test("a wrong password and an unknown email are answered the same", async () => {
    const make = factories(app);
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id, "technician");
    const page = await newPage();
    const attempt = async (email: string) => {
      await page.goto("/login");
      await page.getByTestId("login-email").fill(email);
      await page.getByTestId("login-password").fill("not the right password");
      const status = await submit(page, "login-submit");
      return { status, alert: await page.getByRole("alert").textContent() };
    };
    const wrongPassword = await attempt(user.email);
    await shot(page, "login-refused");
    const unknownEmail = await attempt("nobody@nowhere.example");
    expect(wrongPassword).toEqual({ status: 401, alert: "Invalid email or password" });
    expect(unknownEmail).toEqual(wrongPassword);

    // keyboard only: the form focuses the email field, Tab reaches the password, Enter submits
    await page.goto("/login");
    // autofocus lands after the load event on a busy machine: typing before it typed nowhere
    await page.waitForFunction(
      () => document.activeElement?.getAttribute("data-testid") === "login-email",
    );
    await page.keyboard.type(user.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.waitForURL("**/settings/api-keys");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
  });
});
