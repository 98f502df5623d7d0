import { expect, setDefaultTimeout, test } from "bun:test";
import { signInFailures } from "../../src/db/schema/index.ts";
import { buildTestApp, describeEachDriver, graphql, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

// every sign-in hashes a password at OWASP's scrypt cost (128 MiB, about a second here)
setDefaultTimeout(120_000);

describeEachDriver("settings screen, security", (driver) => {
  const { app, make, db: fresh } = useTestApp(driver);
  const db = () => app.services.database.db;
  const keysOf = async (userId: string) =>
    (await db().query.apiKeys.findMany()).filter((k) => k.userId === userId);

  async function signedInMember(role = "technician") {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id, role);
    const browser = pageClient(app);
    expect((await browser.signIn(user.email)).status).toBe(303);
    return { org, user, browser };
  }

  test("a form without the right CSRF token, or from another origin, is 403 and changes nothing", async () => {
    const { org, user, browser } = await signedInMember();
    const form = { org: org.id, name: "k", scopes: "tickets:read", expiration: "NEVER" };
    const missing = await browser.post("/settings/api-keys", form);
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain("nothing was changed");
    const wrong = await browser.post("/settings/api-keys", { ...form, _csrf: "x".repeat(64) });
    expect(wrong.status).toBe(403);
    const foreign = await browser.post(
      "/settings/api-keys",
      { ...form, _csrf: browser.sessionCsrf() },
      { origin: "https://evil.example" },
    );
    expect(foreign.status, "right token, foreign Origin").toBe(403);
    expect(await keysOf(user.id), "no key was created").toHaveLength(0);
    const own = await browser.post(
      "/settings/api-keys",
      { ...form, _csrf: browser.sessionCsrf() },
      { origin: "http://localhost" },
    );
    expect(own.status, "the service's own Origin is accepted").toBe(303);

    const fresh = pageClient(app);
    await fresh.get("/login");
    const login = await fresh.post("/login", { email: user.email, password: PASSWORD });
    expect(login.status, "sign-in without the token").toBe(403);
    expect(fresh.jar.values.has("orgit_session")).toBe(false);
    const logout = await browser.post("/logout", { _csrf: "nope" });
    expect(logout.status).toBe(403);
    expect((await browser.get("/settings/api-keys")).status, "still signed in").toBe(200);
  });

  test("a wrong password and an unknown email get the same 401 page", async () => {
    const { user } = await signedInMember();
    const attempt = async (email: string) => {
      const browser = pageClient(app);
      await browser.get("/login");
      const response = await browser.post("/login", {
        _csrf: browser.preSessionCsrf(),
        email,
        password: "not the password at all",
      });
      const text = (await response.text())
        .replaceAll(email, "EMAIL")
        .replaceAll(browser.preSessionCsrf(), "CSRF");
      return { status: response.status, text };
    };
    const wrongPassword = await attempt(user.email);
    const unknownEmail = await attempt(`nobody-${crypto.randomUUID()}@example.com`);
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.text).toContain("Invalid email or password");
    expect(unknownEmail).toEqual(wrongPassword);
  });

  test("10 failures for one account within 15 minutes answer 429, even with the right password", async () => {
    const { user } = await signedInMember();
    const browser = pageClient(app);
    await browser.get("/login");
    const csrf = browser.preSessionCsrf();
    for (let i = 0; i < 10; i++) {
      const r = await browser.post("/login", {
        _csrf: csrf,
        email: user.email,
        password: `wrong ${i}`,
      });
      expect(r.status, `failure ${i + 1}`).toBe(401);
    }
    const blocked = await browser.post("/login", {
      _csrf: csrf,
      email: user.email,
      password: PASSWORD,
    });
    expect(blocked.status).toBe(429);
    expect(await blocked.text()).toContain("Too many failed sign-ins");
    expect(browser.jar.values.has("orgit_session")).toBe(false);
    const otherIp = pageClient(app);
    await otherIp.get("/login");
    const r = await send(app, "/login", {
      method: "POST",
      peer: "203.0.113.9",
      headers: {
        cookie: otherIp.jar.header(),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        _csrf: otherIp.preSessionCsrf(),
        email: user.email,
        password: PASSWORD,
      }).toString(),
    });
    expect(r.status, "the account is throttled from any IP").toBe(429);
  });

  test("30 failures from one IP within 15 minutes answer 429 for every account", async () => {
    const { user } = await signedInMember();
    const ip = "198.51.100.7";
    await db()
      .insert(signInFailures)
      .values(Array.from({ length: 30 }, (_, i) => ({ email: `guess${i}@example.com`, ip })));
    const browser = pageClient(app);
    await browser.get("/login");
    const body = new URLSearchParams({
      _csrf: browser.preSessionCsrf(),
      email: user.email,
      password: PASSWORD,
    });
    const post = (peer: string) =>
      send(app, "/login", {
        method: "POST",
        peer,
        headers: {
          cookie: browser.jar.header(),
          "content-type": "application/x-www-form-urlencoded",
        },
        body: body.toString(),
      });
    expect((await post(ip)).status).toBe(429);
    expect((await post("198.51.100.8")).status, "another IP signs in").toBe(303);
  });

  test("/graphql never accepts the session cookie", async () => {
    const { org, browser } = await signedInMember();
    const query = `query($o: ID!) { myApiKeys(organizationId: $o) { id } }`;
    const withCookie = await send(app, "/graphql", {
      method: "POST",
      headers: { cookie: browser.jar.header() },
      body: { query, variables: { o: org.id } },
    });
    expect(withCookie.status).toBe(401);
    expect(await withCookie.json()).toEqual({ error: "Missing API key" });
    const member = await make.member({ organizationId: org.id, role: "technician" });
    const withKey = await graphql(app, member.key, query, { o: org.id });
    expect(withKey.json.errors?.[0]?.message, "an API key cannot mint or list keys here").toBe(
      "This operation is for a member signed in to the settings screen",
    );
  });

  test("an admin sees and revokes a technician's key; a technician sees only their own", async () => {
    const org = await make.organization();
    const admin = await memberWithPassword(app, make, org.id, "admin", {
      firstName: "Ada",
      lastName: "Admin",
    });
    const tech = await memberWithPassword(app, make, org.id, "technician", {
      firstName: "Tom",
      lastName: "Tech",
    });
    const adminKey = await app.services.memberKeys.create(
      { userId: admin.id },
      {
        organizationId: org.id,
        name: "admin key",
        scopes: ["users:read"],
        expiresIn: "NEVER",
      },
    );
    const techKey = await app.services.memberKeys.create(
      { userId: tech.id },
      {
        organizationId: org.id,
        name: "tech key",
        scopes: ["tickets:read"],
        expiresIn: "DAYS_90",
      },
    );
    const techBrowser = pageClient(app);
    await techBrowser.signIn(tech.email);
    const techPage = await (await techBrowser.get("/settings/api-keys")).text();
    expect(techPage).toContain('data-key-name="tech key"');
    expect(techPage).not.toContain('data-key-name="admin key"');
    const sneaky = await techBrowser.post(`/settings/api-keys/${adminKey.apiKey.id}/revoke`, {
      _csrf: techBrowser.sessionCsrf(),
      org: org.id,
    });
    expect(sneaky.status, "another member's key is not found").toBe(404);
    expect((await send(app, "/api/v1/whoami", { key: adminKey.secret })).status).toBe(200);

    const adminBrowser = pageClient(app);
    await adminBrowser.signIn(admin.email);
    const adminPage = await (await adminBrowser.get("/settings/api-keys")).text();
    expect(adminPage).toContain('data-key-name="tech key"');
    expect(adminPage).toContain('data-testid="key-owner">Tom Tech<');
    const revoked = await adminBrowser.post(`/settings/api-keys/${techKey.apiKey.id}/revoke`, {
      _csrf: adminBrowser.sessionCsrf(),
      org: org.id,
    });
    expect(revoked.status).toBe(303);
    const refused = await send(app, "/api/v1/whoami", { key: techKey.secret });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "API key revoked" });
  });

  test("two organizations: nothing of the other one is seen, created or revoked", async () => {
    const a = await signedInMember("admin");
    const b = await signedInMember("admin");
    const bKey = await app.services.memberKeys.create(
      { userId: b.user.id },
      {
        organizationId: b.org.id,
        name: "b key",
        scopes: ["tickets:read"],
        expiresIn: "NEVER",
      },
    );
    expect((await a.browser.get(`/settings/api-keys?org=${b.org.id}`)).status).toBe(404);
    const create = await a.browser.post("/settings/api-keys", {
      _csrf: a.browser.sessionCsrf(),
      org: b.org.id,
      name: "x",
      scopes: "tickets:read",
      expiration: "NEVER",
    });
    expect(create.status).toBe(404);
    const revoke = await a.browser.post(`/settings/api-keys/${bKey.apiKey.id}/revoke`, {
      _csrf: a.browser.sessionCsrf(),
      org: a.org.id,
    });
    expect(revoke.status).toBe(404);
    expect((await send(app, "/api/v1/whoami", { key: bKey.secret })).status).toBe(200);
    const aPage = await (await a.browser.get("/settings/api-keys")).text();
    expect(aPage).not.toContain("b key");
    const orgs = await app.services.memberKeys.organizations({ userId: a.user.id });
    expect(orgs.map((o) => o.id)).toEqual([a.org.id]);
    await expect(app.services.memberKeys.list({ userId: a.user.id }, b.org.id)).rejects.toThrow(
      "Organization not found",
    );
  });

  test("removal from the organization and a new password end sessions at once", async () => {
    const removed = await signedInMember();
    await app.services.operator.removeMember(removed.org.id, removed.user.id);
    const after = await removed.browser.get("/settings/api-keys");
    expect(after.status).toBe(303);
    expect(after.headers.get("location")).toBe("/login?expired");

    const reset = await signedInMember();
    await app.services.accounts.setPassword(reset.user.id, "a brand new passphrase");
    expect((await reset.browser.get("/settings/api-keys")).headers.get("location")).toBe(
      "/login?expired",
    );
  });

  test("secrets are stored hashed: passwords with scrypt at OWASP's parameters, sessions by SHA-256", async () => {
    const { user, browser } = await signedInMember();
    const passwordOf = async (userId: string) =>
      (await db().query.userPasswords.findFirst({ where: (p, { eq }) => eq(p.userId, userId) }))
        ?.hash;
    // the suites hash with lighter parameters (TEST_SCRYPT); an app built without them, as
    // the service is, hashes at OWASP's, and the lighter hash still verifies there
    const service = await buildTestApp(await fresh.openAnother(), { passwordHashing: undefined });
    try {
      expect(await passwordOf(user.id)).toMatch(/^scrypt\$1024\$8\$1\$/);
      expect(
        (await service.services.accounts.signIn(user.email, PASSWORD, "192.0.2.90")).kind,
        "a hash keeps its own parameters",
      ).toBe("ok");
      await service.services.accounts.setPassword(user.id, PASSWORD);
    } finally {
      await service.stop();
    }
    const stored = await passwordOf(user.id);
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(stored).not.toContain(PASSWORD);
    await browser.signIn(user.email);
    const token = browser.jar.values.get("orgit_session") as string;
    const sessions = await db().query.userSessions.findMany({
      where: (s, { eq }) => eq(s.userId, user.id),
    });
    expect(sessions).toHaveLength(1);
    expect(JSON.stringify(sessions)).not.toContain(token);
  });

  test("names are escaped; a member without an admin or technician seat cannot create keys", async () => {
    const org = await make.organization();
    await make.role(org.id, "viewer", "USER", ["users.view"]);
    const viewer = await memberWithPassword(app, make, org.id, "viewer");
    const browser = pageClient(app);
    await browser.signIn(viewer.email);
    const page = await (await browser.get("/settings/api-keys")).text();
    expect(page).toContain("API keys are for administrator and technician seats");
    const refused = await browser.post("/settings/api-keys", {
      _csrf: browser.sessionCsrf(),
      org: org.id,
      name: "<script>x</script>",
      scopes: "tickets:read",
      expiration: "NEVER",
    });
    expect(refused.status).toBe(403);
    const text = await refused.text();
    expect(text).not.toContain("<script>x");
    expect(await keysOf(viewer.id)).toHaveLength(0);
  });
});
