import { expect, setDefaultTimeout, test } from "bun:test";
import { setPeerAddress } from "../../src/http/peer.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

setDefaultTimeout(60_000);

/** docs/security.md, "Settings screen": what a replayed cookie, a crafted link or a frame can do. */
describeEachDriver("settings pages, hardening", (driver) => {
  const { app, make } = useTestApp(driver);

  async function signedInMember() {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    expect((await browser.signIn(user.email)).status).toBe(303);
    return { org, user, browser };
  }

  const createKey = (browser: ReturnType<typeof pageClient>, org: string) =>
    browser.post("/settings/api-keys", {
      _csrf: browser.sessionCsrf(),
      org,
      name: "Backup script",
      scopes: "tickets:read",
      expiration: "NEVER",
    });

  test("the new-key cookie shows the secret once: replaying it shows nothing", async () => {
    const { org, browser } = await signedInMember();
    expect((await createKey(browser, org.id)).status).toBe(303);
    const replay = browser.jar.header();
    const first = await (await browser.get(`/settings/api-keys?org=${org.id}`)).text();
    expect(first).toContain('data-testid="new-key-secret"');
    const again = await send(app, `/settings/api-keys?org=${org.id}`, {
      headers: { cookie: replay },
    });
    expect(again.status).toBe(200);
    const text = await again.text();
    expect(text, "the same cookie a second time").not.toContain('data-testid="new-key-secret"');
    expect(text).not.toMatch(/orgit_[0-9A-Za-z]{40}/);
  });

  test("?revoked=<id> of an active key says nothing; a real revocation is announced once", async () => {
    const { org, user, browser } = await signedInMember();
    await createKey(browser, org.id);
    await browser.get(`/settings/api-keys?org=${org.id}`);
    const keys = await app.services.database.db.query.apiKeys.findMany();
    const key = keys.find((k) => k.userId === user.id) as { id: string };
    const crafted = await (
      await browser.get(`/settings/api-keys?org=${org.id}&revoked=${key.id}`)
    ).text();
    expect(crafted, "an active key is not said to be revoked").not.toContain(
      "revoked. It is refused",
    );
    const revoked = await browser.post(`/settings/api-keys/${key.id}/revoke`, {
      _csrf: browser.sessionCsrf(),
      org: org.id,
    });
    expect(revoked.status).toBe(303);
    const location = revoked.headers.get("location") as string;
    expect(await (await browser.get(location)).text()).toContain("Key “Backup script” revoked.");
    expect(await (await browser.get(location)).text(), "a reload").not.toContain(
      "Key “Backup script” revoked.",
    );
  });

  test("over HTTPS every cookie has the __Host- prefix (Secure, Path=/), and an unprefixed one is ignored", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const https = (path: string, init: RequestInit = {}) =>
      app.handle(setPeerAddress(new Request(`https://localhost${path}`, init), "127.0.0.1"));
    const form = await https("/login");
    const csrfLine = form.headers.getSetCookie()[0] as string;
    expect(csrfLine).toMatch(
      /^__Host-orgit_csrf=[0-9A-Za-z]{32}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    const csrf = (csrfLine.split(";")[0] as string).split("=")[1] as string;
    const login = await https("/login", {
      method: "POST",
      headers: {
        cookie: `__Host-orgit_csrf=${csrf}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ _csrf: csrf, email: user.email, password: PASSWORD }).toString(),
    });
    expect(login.status).toBe(303);
    const sessionLine = login.headers
      .getSetCookie()
      .find((c) => c.includes("orgit_session=")) as string;
    expect(sessionLine).toMatch(
      /^__Host-orgit_session=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    const token = (sessionLine.split(";")[0] as string).split("=")[1];
    const prefixed = await https("/settings/api-keys", {
      headers: { cookie: `__Host-orgit_session=${token}` },
    });
    expect(prefixed.status).toBe(200);
    const plain = await https("/settings/api-keys", {
      headers: { cookie: `orgit_session=${token}` },
    });
    expect(plain.status, "a cookie a subdomain could have set is not a session").toBe(303);
    expect(plain.headers.get("location")).toBe("/login");
  });

  test("pages forbid framing, foreign form targets and <base>", async () => {
    const page = await send(app, "/login");
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    );
  });

  test("a form body to /login over 1 MiB without Content-Length is refused with 413", async () => {
    const chunk = new TextEncoder().encode(`password=${"a".repeat(64 * 1024)}`);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 24) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
      // @ts-expect-error Bun and undici want duplex for a streamed body
      duplex: "half",
    });
    const response = await app.handle(setPeerAddress(request, "127.0.0.1"));
    expect(response.status).toBe(413);
    expect(sent, "reading stopped shortly after the limit").toBeLessThan(24);
  });
});
