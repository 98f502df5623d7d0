import { expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { eq } from "drizzle-orm";
import { passkeyCredentials } from "../../src/db/schema/index.ts";
import { SoftAuthenticator } from "../helpers/authenticator.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { addPasskey, ORIGIN, passkeySignIn } from "../helpers/passkeys.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";

// each password sign-in hashes at OWASP's scrypt cost
setDefaultTimeout(120_000);

/** Passkeys on the settings screen (docs/settings.md), through the pages, real verification. */
describeEachDriver("passkeys, happy paths", (driver) => {
  const { app, make } = useTestApp(driver, { env: { PUBLIC_BASE_URL: ORIGIN } });
  const rows = (userId: string) =>
    app.services.database.db
      .select()
      .from(passkeyCredentials)
      .where(eq(passkeyCredentials.userId, userId));

  test("a member adds a named passkey, sees it listed, then signs in with it and no email", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    expect((await browser.signIn(user.email)).status).toBe(303);
    const empty = await browser.get("/settings/security");
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain("No passkeys yet.");

    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await addPasskey(browser, authenticator, "  Work laptop ");
    expect(added.status, "added, then back to the page").toBe(303);
    expect(added.headers.get("location")).toBe("/settings/security");
    const listed = await (await browser.get("/settings/security")).text();
    expect(listed).toContain("Passkey added.");
    expect(listed).toContain('data-passkey-name="Work laptop"');
    expect(listed).toContain("Never used");
    const again = await (await browser.get("/settings/security")).text();
    expect(again, "the notice is shown once").not.toContain("Passkey added.");

    const [stored] = await rows(user.id);
    expect(stored?.name).toBe("Work laptop");
    expect(stored?.credentialId).toBe(
      Buffer.from(authenticator.credentials[0]?.id ?? []).toString("base64url"),
    );
    expect(stored?.transports).toEqual(["internal"]);
    expect(stored?.counter).toBe(0);

    const fresh = pageClient(app);
    const signedIn = await passkeySignIn(fresh, authenticator);
    expect(signedIn.status, "signed in, to the keys page").toBe(303);
    expect(signedIn.headers.get("location")).toBe("/settings/api-keys");
    expect(fresh.jar.values.has("orgit_session")).toBe(true);
    expect(fresh.jar.values.has("orgit_passkey_attempt"), "the attempt is over").toBe(false);
    const keys = await fresh.get("/settings/api-keys");
    expect(keys.status).toBe(200);
    expect(await keys.text()).toContain(user.firstName);

    const [used] = await rows(user.id);
    expect(used?.counter, "the counter the authenticator reported").toBe(1);
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
    const page = await (await fresh.get("/settings/security")).text();
    expect(page).not.toContain("Never used");
  });

  test("a member of two organizations signed in with a passkey sees both, as after a password", async () => {
    const first = await make.organization({ name: "Alpha passkeys" });
    const second = await make.organization({ name: "Beta passkeys" });
    const user = await memberWithPassword(app, make, first.id, "admin");
    await app.services.operator.addMember({
      organizationId: second.id,
      userId: user.id,
      role: "technician",
    });
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(browser, authenticator, "Phone")).status).toBe(303);

    const fresh = pageClient(app);
    expect((await passkeySignIn(fresh, authenticator)).status).toBe(303);
    const page = await (await fresh.get("/settings/api-keys")).text();
    expect(page).toContain("Alpha passkeys");
    expect(page).toContain("Beta passkeys");
    const other = await fresh.get(`/settings/api-keys?org=${second.id}`);
    expect(await other.text(), "the second one, picked").toContain("Your keys in Beta passkeys");
  });

  test("removing a passkey asks first, then it is gone from the list and refused at sign-in", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await addPasskey(browser, authenticator, "Old key");
    const [row] = await rows(user.id);
    const confirm = await browser.get(`/settings/security/passkeys/${row?.id}/remove`);
    expect(confirm.status).toBe(200);
    const question = await confirm.text();
    expect(question).toContain("Remove “Old key”?");
    expect(question).toContain('name="_csrf"');
    expect(await rows(user.id), "asking removes nothing").toHaveLength(1);

    const removed = await browser.post(`/settings/security/passkeys/${row?.id}/remove`, {
      _csrf: browser.sessionCsrf(),
    });
    expect(removed.status).toBe(303);
    const page = await (await browser.get("/settings/security")).text();
    expect(page).toContain("Passkey removed.");
    expect(page).toContain("No passkeys yet.");
    expect(await rows(user.id)).toHaveLength(0);

    const fresh = pageClient(app);
    const refused = await passkeySignIn(fresh, authenticator);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain("This passkey is not registered with orgit");
    expect(fresh.jar.values.has("orgit_session")).toBe(false);
  });

  test("the passkey scripts come from the service: the pinned library's own bundle, cached a year, under the strict CSP", async () => {
    const login = await send(app, "/login");
    expect(login.headers.get("content-security-policy")).toContain("default-src 'self'");
    const page = await login.text();
    const scripts = [...page.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1] as string);
    expect(
      scripts.every((src) => src.startsWith("/assets/")),
      "no other origin",
    ).toBe(true);
    expect(page, "no inline script").not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const library = scripts.find((src) => src.startsWith("/assets/webauthn."));
    expect(library).toMatch(/^\/assets\/webauthn\.[0-9a-f]{12}\.js$/);
    const served = await send(app, library as string);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const bundle = join(
      dirname(createRequire(import.meta.url).resolve("@simplewebauthn/browser")),
      "../dist/bundle/index.umd.min.js",
    );
    expect(await served.text(), "byte for byte the package's bundle").toBe(
      readFileSync(bundle, "utf8"),
    );
    const glue = scripts.find((src) => src.startsWith("/assets/passkeys."));
    expect((await send(app, glue as string)).status).toBe(200);
    expect(
      (await send(app, "/assets/webauthn.000000000000.js")).status,
      "only the current hash",
    ).toBe(404);
  });
});
