import { expect, setDefaultTimeout, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

// every sign-in hashes a password at OWASP's scrypt cost (128 MiB, about a second here)
setDefaultTimeout(120_000);

const HOUR = 3600_000;

describeEachDriver("settings screen, errors and expiry", (driver) => {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, { now: clock.now });

  async function signedIn() {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id, "admin");
    const browser = pageClient(app);
    expect((await browser.signIn(user.email)).status).toBe(303);
    return { org, user, browser };
  }

  test("a session ends after 12 idle hours", async () => {
    const { browser } = await signedIn();
    clock.advance(11 * HOUR);
    expect((await browser.get("/settings/api-keys")).status, "11 h idle: still signed in").toBe(
      200,
    );
    clock.advance(12 * HOUR + 1000);
    const idle = await browser.get("/settings/api-keys");
    expect(idle.status).toBe(303);
    expect(idle.headers.get("location")).toBe("/login?expired");
  });

  test("a session ends 7 days after sign-in, however active", async () => {
    const { browser } = await signedIn();
    for (let i = 0; i < 15; i++) {
      clock.advance(11 * HOUR);
      expect((await browser.get("/settings/api-keys")).status, `after ${(i + 1) * 11} h`).toBe(200);
    }
    clock.advance(4 * HOUR); // 169 h in all
    expect((await browser.get("/settings/api-keys")).headers.get("location")).toBe(
      "/login?expired",
    );
  });

  test("throttling lasts until the 15-minute window passes", async () => {
    const { user } = await signedIn();
    const browser = pageClient(app);
    await browser.get("/login");
    const csrf = browser.preSessionCsrf();
    for (let i = 0; i < 10; i++) {
      await browser.post("/login", { _csrf: csrf, email: user.email, password: "wrong password!" });
    }
    expect(
      (await browser.post("/login", { _csrf: csrf, email: user.email, password: PASSWORD })).status,
    ).toBe(429);
    clock.advance(15 * 60_000 + 1000);
    expect(
      (await browser.post("/login", { _csrf: csrf, email: user.email, password: PASSWORD })).status,
      "the window has passed",
    ).toBe(303);
  });

  test("invitation links: unknown 404, expired 410, a bad password keeps the link usable", async () => {
    const user = await make.user();
    const browser = pageClient(app);
    expect((await browser.get(`/invite/${"A".repeat(43)}`)).status).toBe(404);
    expect((await browser.get("/invite/short")).status).toBe(404);

    const { url } = await app.services.accounts.createInvitation(user.id);
    const path = new URL(url).pathname;
    await browser.get(path);
    const short = await browser.post(path, { _csrf: browser.preSessionCsrf(), password: "short" });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Must be at least 12 characters");
    const mismatch = await browser.post(path, {
      _csrf: browser.preSessionCsrf(),
      password: PASSWORD,
      passwordConfirm: `${PASSWORD}!`,
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("not the same");
    expect((await browser.get(path)).status, "still usable").toBe(200);

    const later = await app.services.accounts.createInvitation(user.id);
    expect((await browser.get(path)).status, "a newer link replaces the older one").toBe(404);
    clock.advance(7 * 24 * HOUR + 1000);
    const expired = await browser.get(new URL(later.url).pathname);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("expired");
  });

  test("a create form with problems is answered 400 with each problem and creates nothing", async () => {
    const { org, user, browser } = await signedIn();
    const response = await browser.post("/settings/api-keys", {
      _csrf: browser.sessionCsrf(),
      org: org.id,
      name: "",
      expiration: "DAYS_30",
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain("Name: Must be 1 to 100 characters");
    expect(text).toContain("Scopes: Choose at least one scope");
    const unknown = await browser.post("/settings/api-keys", {
      _csrf: browser.sessionCsrf(),
      org: org.id,
      name: "ok",
      scopes: ["tickets:read", "root:all"],
      expiration: "FOREVER",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Expiration");
    const keys = (await app.services.database.db.query.apiKeys.findMany()).filter(
      (k) => k.userId === user.id,
    );
    expect(keys).toHaveLength(0);
  });

  test("without a session the settings redirect to sign-in", async () => {
    const response = await pageClient(app).get("/settings/api-keys");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login");
  });

  test("an unexpected failure answers an HTML 500 page with the screen's headers, never the cause", async () => {
    const sessions = app.services.sessions;
    const original = sessions.resolve;
    sessions.resolve = () => Promise.reject(new Error("database unavailable"));
    try {
      const response = await send(app, "/settings/api-keys", {
        headers: { cookie: "orgit_session=x" },
      });
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).toBe(
        "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
      );
      const text = await response.text();
      expect(text).toContain("Something went wrong");
      expect(text).not.toContain("database unavailable");
    } finally {
      sessions.resolve = original;
    }
  });

  test("a key past its expiry is listed as expired", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    await app.services.memberKeys.create(
      { userId: user.id },
      {
        organizationId: org.id,
        name: "short-lived",
        scopes: ["tickets:read"],
        expiresIn: "DAYS_30",
      },
    );
    clock.advance(31 * 24 * HOUR);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const page = await (await browser.get("/settings/api-keys")).text();
    expect(page).toMatch(/data-key-name="short-lived"[\s\S]*data-testid="key-status">expired</);
  });
});
