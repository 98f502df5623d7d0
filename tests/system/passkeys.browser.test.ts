import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import type { Browser, CDPSession, Page } from "playwright-core";
import type { OrgitApp } from "../../src/app.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { launchBrowser, SCREENSHOT_DIR } from "../helpers/browser.ts";
import { buildTestApp, type FreshDatabase, factories, freshDatabase } from "../helpers/harness.ts";
import { freePort } from "../helpers/service-process.ts";
import { memberWithPassword, PASSWORD } from "../helpers/settings.ts";

// a real Chromium, and a password hash at OWASP's scrypt cost on every sign-in
setDefaultTimeout(240_000);

interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
}

/**
 * Passkeys end to end in Chromium, with the Chrome DevTools Protocol's virtual authenticator
 * (a platform authenticator with user verification): what the member does, what the browser's
 * WebAuthn API sends, and what the service accepts or refuses (docs/settings.md, passkeys).
 * WebAuthn needs a secure context and an RP ID that is a host name: http://localhost is both.
 */
describe("passkeys in a browser", () => {
  let db: FreshDatabase;
  let app: OrgitApp;
  let server: ReturnType<typeof Bun.serve>;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
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
    page.screenshot({ path: `${SCREENSHOT_DIR}passkeys-${name}.png`, fullPage: true });

  async function virtualAuthenticator(page: Page) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("WebAuthn.enable");
    const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, authenticatorId };
  }

  async function credentials(cdp: CDPSession, authenticatorId: string) {
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    return credentials as VirtualCredential[];
  }

  /** Puts the authenticator's one credential back with another signature counter. */
  async function setSignCount(cdp: CDPSession, authenticatorId: string, signCount: number) {
    const [credential] = await credentials(cdp, authenticatorId);
    if (!credential) throw new Error("no credential on the virtual authenticator");
    await cdp.send("WebAuthn.removeCredential", {
      authenticatorId,
      credentialId: credential.credentialId,
    });
    await cdp.send("WebAuthn.addCredential", {
      authenticatorId,
      credential: { ...credential, signCount },
    });
  }

  async function signOut(page: Page) {
    await page.getByTestId("logout").click();
    await page.waitForURL("**/login?signed_out");
  }

  /** Presses "Sign in with a passkey" from the keyboard; answers the page's alert, if any. */
  async function passkeySignIn(page: Page) {
    await page.goto("/login");
    await page.getByTestId("passkey-sign-in").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/(settings\/api-keys|login\/passkey)$/);
    return page.url().endsWith("/settings/api-keys")
      ? null
      : ((await page.getByRole("alert").first().textContent()) ?? "");
  }

  test("register, sign out, sign in with the passkey, counter regression refused, remove, removed passkey refused", async () => {
    const make = factories(app);
    const org = await make.organization({ name: "Acme", plan: "PRO" });
    const member = await memberWithPassword(app, make, org.id, "admin", {
      firstName: "Ada",
      lastName: "Admin",
    });
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: base,
    });
    const page = await context.newPage();
    const elsewhere: string[] = [];
    page.on("request", (r) => {
      if (new URL(r.url()).origin !== base) elsewhere.push(r.url());
    });
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    // sign in with the password, then add a passkey from the keyboard on the security page
    await page.goto("/login");
    await page.getByTestId("login-email").fill(member.email);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/api-keys");
    await page.getByTestId("nav-security").click();
    await page.waitForURL("**/settings/security");
    expect(await page.getByTestId("no-passkeys").isVisible()).toBe(true);
    await page.getByTestId("passkey-name").fill("Work laptop");
    await page.keyboard.press("Enter");
    await page.getByTestId("security-notice").waitFor();
    expect(await page.getByTestId("security-notice").textContent()).toBe("Passkey added.");
    const row = page.locator('[data-testid="passkey-row"][data-passkey-name="Work laptop"]');
    expect(await row.isVisible()).toBe(true);
    expect(await row.getByTestId("passkey-last-used").textContent()).toBe("Never used");
    const stored = await credentials(cdp, authenticatorId);
    expect(stored, "a discoverable credential on the authenticator").toHaveLength(1);
    expect(stored[0]?.isResidentCredential).toBe(true);
    await shot(page, "security");

    // password-less: sign out, then sign in with the passkey and no email
    await signOut(page);
    expect(await passkeySignIn(page), "signed in with the passkey").toBeNull();
    expect(await page.getByText("Ada Admin").isVisible()).toBe(true);
    const counter = (await credentials(cdp, authenticatorId))[0]?.signCount ?? 0;
    expect(counter).toBeGreaterThan(0);

    // a copy of the authenticator: its counter behind the one the service saw is refused
    await signOut(page);
    await setSignCount(cdp, authenticatorId, 0);
    const regression = await passkeySignIn(page);
    expect(regression).toContain("its use counter went backwards");
    expect((await context.cookies()).some((c) => c.name === "orgit_session")).toBe(false);
    await shot(page, "counter-refused");
    await setSignCount(cdp, authenticatorId, counter + 10);
    expect(await passkeySignIn(page), "ahead of the stored counter again").toBeNull();

    // remove it (with confirmation), then the same passkey no longer signs in
    await page.goto("/settings/security");
    expect(await row.getByTestId("passkey-last-used").textContent()).not.toBe("Never used");
    await row.getByTestId("passkey-remove").click();
    await page.waitForURL("**/remove");
    await page.getByTestId("passkey-remove-confirm").click();
    await page.getByTestId("security-notice").waitFor();
    expect(await page.getByTestId("security-notice").textContent()).toBe("Passkey removed.");
    expect(await page.getByTestId("no-passkeys").isVisible()).toBe(true);
    await signOut(page);
    const removed = await passkeySignIn(page);
    expect(removed).toContain("This passkey is not registered with orgit");
    await shot(page, "removed-refused");

    expect(elsewhere, "every script and request stays on the service").toEqual([]);
    // contexts stay open: closing one ends the single-process browser (tests/helpers/browser.ts)
  });

  test("an administrator whose organization requires a passkey enrols one with the password, then signs in with it", async () => {
    const make = factories(app);
    const org = await make.organization({ name: "Strict", plan: "PRO" });
    await app.services.operator.updateOrganization(org.id, { requirePasskey: true });
    const admin = await memberWithPassword(app, make, org.id, "admin");
    // a browser of its own: in the shared single-process browser, this second context's options
    // call (a fetch) answered 401 although the context held its session cookie; alone it passes
    const own = await launchBrowser();
    const context = await own.newContext({ viewport: { width: 1280, height: 900 }, baseURL: base });
    const page = await context.newPage();
    await virtualAuthenticator(page);
    await page.goto("/login");
    await page.getByTestId("login-email").fill(admin.email);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/security");
    expect(await page.getByTestId("enroll-only").textContent()).toContain(
      "requires administrators to sign in with a passkey",
    );
    await page.getByTestId("passkey-name").fill("Admin laptop");
    await page.keyboard.press("Enter");
    await page.waitForURL("**/login?passkey_added");
    expect(await page.getByText("Passkey added. Sign in with it now.").isVisible()).toBe(true);

    await page.getByTestId("login-email").fill(admin.email);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/login");
    expect(await page.getByRole("alert").first().textContent()).toContain(
      "Use “Sign in with a passkey” below.",
    );
    expect(await passkeySignIn(page), "the passkey opens the screen").toBeNull();
    await own.close();
  });

  test("the security and sign-in pages fit a phone and show the passkey controls", async () => {
    const make = factories(app);
    const org = await make.organization({ name: "Phone Org", plan: "PRO" });
    const member = await memberWithPassword(app, make, org.id);
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      baseURL: base,
    });
    const page = await context.newPage();
    await page.goto("/login");
    expect(await page.getByTestId("passkey-sign-in").isEnabled(), "WebAuthn is supported").toBe(
      true,
    );
    const fits = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits(), "no sideways scrolling on the sign-in page").toBe(true);
    await page.getByTestId("login-email").fill(member.email);
    await page.getByTestId("login-password").fill(PASSWORD);
    await page.getByTestId("login-submit").click();
    await page.waitForURL("**/settings/api-keys");
    await page.goto("/settings/security");
    expect(await fits(), "no sideways scrolling on the security page").toBe(true);
    await shot(page, "security-phone");
  });
});
