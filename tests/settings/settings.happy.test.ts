import { expect, setDefaultTimeout, test } from "bun:test";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

// every sign-in hashes a password at OWASP's scrypt cost (128 MiB, about a second here)
setDefaultTimeout(120_000);

describeEachDriver("settings screen, happy paths", (driver) => {
  const { app, make } = useTestApp(driver);

  test("sign in, create a key with two scopes for 30 days, see its secret once, use it, revoke it", async () => {
    const org = await make.organization({ name: "Acme" });
    const user = await memberWithPassword(app, make, org.id, "technician");
    const browser = pageClient(app);

    const login = await browser.get("/login");
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('data-testid="login-email"');

    const signedIn = await browser.signIn(user.email);
    expect(signedIn.status, "sign-in redirects").toBe(303);
    expect(signedIn.headers.get("location")).toBe("/settings/api-keys");
    const cookieLine = signedIn.headers.getSetCookie().find((c) => c.startsWith("orgit_session="));
    expect(cookieLine).toMatch(/HttpOnly/);
    expect(cookieLine).toMatch(/SameSite=Lax/);
    expect(cookieLine).toMatch(/Path=\//);

    const list = await browser.get("/settings/api-keys");
    expect(list.status).toBe(200);
    const listHtml = await list.text();
    expect(listHtml).toContain("No keys yet.");
    expect(listHtml).toContain('data-testid="key-scope-tickets:read"');

    const created = await browser.post("/settings/api-keys", {
      _csrf: browser.sessionCsrf(),
      org: org.id,
      name: "Backup script",
      scopes: ["tickets:read", "equipment:read"],
      expiration: "DAYS_30",
    });
    expect(created.status, "redirect after POST").toBe(303);
    expect(created.headers.get("location")).toBe(`/settings/api-keys?org=${org.id}`);

    const shown = await browser.get(`/settings/api-keys?org=${org.id}`);
    const shownHtml = await shown.text();
    const secret = shownHtml.match(/data-testid="new-key-secret"/)
      ? shownHtml.match(/value="(orgit_[0-9A-Za-z]{40})"/)?.[1]
      : undefined;
    expect(secret, "the secret is shown once").toBeDefined();
    expect(shownHtml).toContain('data-key-name="Backup script"');
    expect(shownHtml).toContain(">active<");

    const whoami = await send(app, "/api/v1/whoami", { key: secret });
    expect(whoami.status).toBe(200);
    const me = (await whoami.json()) as { apiKey: { scopes: string[]; expiresAt: string } };
    expect(me.apiKey.scopes.sort()).toEqual(["equipment:read", "tickets:read"]);
    const days = (Date.parse(me.apiKey.expiresAt) - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(30);

    const again = await (await browser.get(`/settings/api-keys?org=${org.id}`)).text();
    expect(again, "never shown again").not.toContain(secret as string);
    expect(again).not.toContain('data-testid="new-key-secret"');
    const keys = await app.services.database.db.query.apiKeys.findMany();
    expect(
      keys.filter((k) => k.userId === user.id),
      "one key, not two",
    ).toHaveLength(1);
    const keyId = keys.find((k) => k.userId === user.id)?.id as string;

    const confirm = await browser.get(`/settings/api-keys/${keyId}/revoke?org=${org.id}`);
    expect(await confirm.text()).toContain('data-testid="key-revoke-confirm"');
    const revoked = await browser.post(`/settings/api-keys/${keyId}/revoke`, {
      _csrf: browser.sessionCsrf(),
      org: org.id,
    });
    expect(revoked.status).toBe(303);
    const refused = await send(app, "/api/v1/whoami", { key: secret });
    expect(refused.status, "refused on the very next request").toBe(401);
    expect(await refused.json()).toEqual({ error: "API key revoked" });
    const after = await (await browser.get(revoked.headers.get("location") as string)).text();
    expect(after).toContain(">revoked<");
    expect(after).toContain("Key “Backup script” revoked.");
  });

  test("every HTML answer carries the screen's security headers", async () => {
    const browser = pageClient(app);
    const pages = [
      await browser.get("/login"),
      await browser.post("/login", { _csrf: "wrong", email: "a@b.c", password: "x" }),
      await browser.get("/invite/unknown"),
    ];
    for (const page of pages) {
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(page.headers.get("content-security-policy")).toBe(
        "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
      );
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("x-request-id")).toBeTruthy();
    }
  });

  test("logout ends the session on the server", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const stolen = browser.jar.header();
    const out = await browser.post("/logout", { _csrf: browser.sessionCsrf() });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login?signed_out");
    const replay = await send(app, "/settings/api-keys", { headers: { cookie: stolen } });
    expect(replay.status, "the old cookie opens nothing").toBe(303);
    expect(replay.headers.get("location")).toStartWith("/login");
  });

  test("an invitation sets the password once and signs the member in", async () => {
    const org = await make.organization();
    const user = await make.user();
    await app.services.operator.addMember({
      organizationId: org.id,
      userId: user.id,
      role: "admin",
    });
    const { url, expiresAt } = await app.services.accounts.createInvitation(user.id);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/invite\/[0-9A-Za-z]{43}$/);
    expect(Math.round((expiresAt.getTime() - Date.now()) / 86_400_000)).toBe(7);
    const path = new URL(url).pathname;
    const browser = pageClient(app);
    const form = await browser.get(path);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('data-testid="invite-password"');
    const done = await browser.post(path, {
      _csrf: browser.preSessionCsrf(),
      password: PASSWORD,
      passwordConfirm: PASSWORD,
    });
    expect(done.status).toBe(303);
    expect((await browser.get("/settings/api-keys")).status, "signed in").toBe(200);
    const reuse = await pageClient(app).get(path);
    expect(reuse.status, "single use").toBe(410);
    expect(await reuse.text()).toContain("already been used");
    const other = pageClient(app);
    expect((await other.signIn(user.email)).status, "the chosen password works").toBe(303);
  });

  test("a member of several organizations picks one; the forms keep it", async () => {
    const beta = await make.organization({ name: "Zeta Beta" });
    const alpha = await make.organization({ name: "Aardvark Alpha" });
    const user = await memberWithPassword(app, make, beta.id, "technician");
    await app.services.operator.addMember({
      organizationId: alpha.id,
      userId: user.id,
      role: "admin",
    });
    await app.services.memberKeys.create(
      { userId: user.id },
      {
        organizationId: beta.id,
        name: "beta key",
        scopes: ["tickets:read"],
        expiresIn: "NEVER",
      },
    );
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const first = await (await browser.get("/settings/api-keys")).text();
    expect(first, "the first organization by name").toContain("in Aardvark Alpha");
    expect(first).toContain(`<option value="${beta.id}">Zeta Beta</option>`);
    expect(first).toContain(`<option value="${alpha.id}" selected>Aardvark Alpha</option>`);
    expect(first).not.toContain("beta key");
    const chosen = await (await browser.get(`/settings/api-keys?org=${beta.id}`)).text();
    expect(chosen).toContain("Your keys in Zeta Beta");
    expect(chosen).toContain('data-key-name="beta key"');
    expect(chosen).toContain(`<input type="hidden" name="org" value="${beta.id}">`);
    const created = await browser.post("/settings/api-keys", {
      _csrf: browser.sessionCsrf(),
      org: beta.id,
      name: "second",
      scopes: "tickets:read",
      expiration: "YEAR_1",
    });
    expect(created.headers.get("location")).toBe(`/settings/api-keys?org=${beta.id}`);
    const key = await app.services.database.db.query.apiKeys.findFirst({
      where: (k, { eq }) => eq(k.name, "second"),
    });
    expect(key?.organizationId).toBe(beta.id);
  });
});
