import { expect, setDefaultTimeout, test } from "bun:test";
import { signInFailures, webauthnChallenges } from "../../src/db/schema/index.ts";
import { SoftAuthenticator } from "../helpers/authenticator.ts";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { addPasskey, ORIGIN, signInOptions } from "../helpers/passkeys.ts";
import { memberWithPassword, type PageClient, pageClient } from "../helpers/settings.ts";

setDefaultTimeout(180_000);

const THROTTLED = "Too many failed sign-ins. Wait 15 minutes, then try again.";
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

/**
 * docs/security.md, "Sign-in: throttle under parallel load" and "Passkeys": a failed passkey
 * sign-in is a failed sign-in. It counts against its owner's account (shared with their
 * password) and its address, reserved before the signature is checked, so a parallel burst
 * gets exactly the limits; beyond them, the password form's 429.
 */
describeEachDriver("passkey sign-in, throttled like passwords", (driver) => {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, { env: { PUBLIC_BASE_URL: ORIGIN }, now: clock.now });

  async function memberWithPasskey() {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(browser, authenticator, "Laptop")).status).toBe(303);
    return { user, authenticator };
  }

  /** A browser at `peer` that has asked for sign-in options, and its answer, ready to post. */
  async function ready(
    peer: string,
    answer: (options: Parameters<SoftAuthenticator["get"]>[0]) => unknown,
  ) {
    const browser = pageClient(app, peer);
    const { status, options } = await signInOptions(browser);
    expect(status, "options").toBe(200);
    const response = JSON.stringify(answer(options));
    return () => post(browser, response);
  }
  const post = (browser: PageClient, response: string) =>
    browser.post("/login/passkey", { _csrf: browser.preSessionCsrf(), response });

  test("20 parallel forged assertions for one member's passkey from 20 addresses: exactly 10 checked (401), 10 refused with the password form's 429; then the genuine passkey and the password are refused too, until the window passes", async () => {
    const { user, authenticator } = await memberWithPasskey();
    const forged = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        ready(`192.0.2.${100 + i}`, (o) => authenticator.get(o, { origin: "https://evil.test" })),
      ),
    );
    const responses = await Promise.all(forged.map((send) => send()));
    const statuses = responses.map((r) => r.status);
    expect(count(statuses, 401), "signatures checked").toBe(10);
    expect(count(statuses, 429), "refused before any check").toBe(10);
    for (const r of responses.filter((x) => x.status === 429)) {
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(900);
      expect(await r.text()).toContain(THROTTLED);
    }
    const genuine = await (await ready("198.51.100.1", (o) => authenticator.get(o)))();
    expect(genuine.status, "the genuine passkey after the cap").toBe(429);
    expect(genuine.headers.getSetCookie().some((c) => c.startsWith("orgit_session="))).toBe(false);
    const password = await pageClient(app, "198.51.100.2").signIn(user.email);
    expect(password.status, "the account's password shares the count").toBe(429);
    expect(await password.text()).toContain(THROTTLED);

    clock.advance(15 * 60_000 + 1_000);
    const later = await (await ready("198.51.100.3", (o) => authenticator.get(o)))();
    expect(later.status, "after 15 minutes").toBe(303);
    const left = await app.services.database.db.select().from(signInFailures);
    expect(
      left.filter((f) => f.email === user.email.toLowerCase()),
      "a success clears the account's count",
    ).toEqual([]);
  });

  test("40 parallel unknown passkeys from one address: exactly 30 checked, 10 refused with 429; that address's password sign-in is refused too, another address's is not", async () => {
    const { user, authenticator } = await memberWithPasskey();
    const unknown = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ready("203.0.113.9", (o) => {
          const response = authenticator.get(o) as { id: string; rawId: string };
          const id = Buffer.from(`never registered ${i}`).toString("base64url");
          return { ...response, id, rawId: id };
        }),
      ),
    );
    const responses = await Promise.all(unknown.map((send) => send()));
    const statuses = responses.map((r) => r.status);
    expect(count(statuses, 401), "looked up and refused").toBe(30);
    expect(count(statuses, 429), "over the address's 30").toBe(10);
    for (const r of responses.filter((x) => x.status === 401)) {
      expect(await r.text()).toContain("This passkey is not registered with orgit");
    }
    const sameAddress = await pageClient(app, "203.0.113.9").signIn(user.email);
    expect(sameAddress.status, "the address's password sign-in").toBe(429);
    expect(sameAddress.headers.get("retry-after")).not.toBeNull();
    const elsewhere = await pageClient(app, "203.0.113.10").signIn(user.email);
    expect(elsewhere.status, "another address, the member's own password").toBe(303);
  });
});

/**
 * docs/limits.md: the passkey ceremonies' options draw one token of the client's per-IP bucket
 * (as GraphiQL does); beyond it the per-IP 429, and no challenge is stored.
 */
describeEachDriver("passkey options, limited per address", (driver) => {
  const { app, make } = useTestApp(driver, {
    env: { PUBLIC_BASE_URL: ORIGIN, RATE_LIMIT_IP_PER_MIN: "10" },
  });
  const challenges = async () =>
    (await app.services.database.db.select().from(webauthnChallenges)).length;

  test("a burst of 40 sign-in options from one address: 10 answered, 30 refused with the per-IP 429 and no challenge row; another address still gets options", async () => {
    const browser = pageClient(app, "192.0.2.77");
    await browser.get("/login");
    const before = await challenges();
    const responses = await Promise.all(
      Array.from({ length: 40 }, () =>
        browser.post("/login/passkey/options", { _csrf: browser.preSessionCsrf() }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(count(statuses, 200), "the bucket's size").toBe(10);
    expect(count(statuses, 429)).toBe(30);
    for (const r of responses.filter((x) => x.status === 429)) {
      expect(await r.json()).toEqual({
        error: "Too many requests",
        retryAfter: Number(r.headers.get("retry-after")),
      });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(await challenges(), "one challenge per answered request").toBe(before + 10);
    const other = await signInOptions(pageClient(app, "192.0.2.78"));
    expect(other.status, "another address").toBe(200);
  });

  test("a signed-in member's burst of 30 passkey registration options: 10 answered, 20 refused with 429, no more challenge rows", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app, "192.0.2.90");
    await browser.signIn(user.email);
    const before = await challenges();
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        browser.post("/settings/security/passkeys/options", { _csrf: browser.sessionCsrf() }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(count(statuses, 200)).toBe(10);
    expect(count(statuses, 429)).toBe(20);
    // registration options of one session replace each other: at most one row more
    expect(await challenges()).toBeLessThanOrEqual(before + 1);
    expect((await responses.find((r) => r.status === 429)?.json())?.error).toBe(
      "Too many requests",
    );
  });
});
