import { expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ENROLL_ONLY_SESSION_MS } from "../../src/auth/sessions.ts";
import { passkeyCredentials } from "../../src/db/schema/index.ts";
import { PASSKEY_LIMITS } from "../../src/modules/passkeys/service.ts";
import { SoftAuthenticator } from "../helpers/authenticator.ts";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { addPasskey, ORIGIN, passkeySignIn, signInOptions } from "../helpers/passkeys.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";

setDefaultTimeout(120_000);

/** What a passkey sign-in or registration refuses (docs/security.md, passkeys). */
describeEachDriver("passkeys, security", (driver) => {
  const clock = manualClock();
  const logs: Record<string, unknown>[] = [];
  const { app, make } = useTestApp(driver, {
    env: { PUBLIC_BASE_URL: ORIGIN },
    now: clock.now,
    logs,
  });
  const db = () => app.services.database.db;
  const rows = (userId: string) =>
    db().select().from(passkeyCredentials).where(eq(passkeyCredentials.userId, userId));

  async function memberWithPasskey() {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(browser, authenticator, "Laptop")).status).toBe(303);
    return { org, user, browser, authenticator };
  }

  test("a counter that does not go up is refused, logged, and the stored counter stays", async () => {
    const { user, authenticator } = await memberWithPasskey();
    expect((await passkeySignIn(pageClient(app), authenticator, { signCount: 5 })).status).toBe(
      303,
    );
    for (const signCount of [5, 4]) {
      const copy = pageClient(app);
      const refused = await passkeySignIn(copy, authenticator, { signCount });
      expect(refused.status, `counter ${signCount} after 5`).toBe(401);
      expect(await refused.text()).toContain("its use counter went backwards");
      expect(copy.jar.values.has("orgit_session")).toBe(false);
    }
    const [row] = await rows(user.id);
    expect(row?.counter, "the highest counter seen").toBe(5);
    expect(
      logs.some((l) => String(l.msg).includes("signature counter did not increase")),
      "logged for the administrator",
    ).toBe(true);
    expect((await passkeySignIn(pageClient(app), authenticator, { signCount: 6 })).status).toBe(
      303,
    );
  });

  test("a challenge is used once: the same answer posted twice signs in only once", async () => {
    const { authenticator } = await memberWithPasskey();
    const browser = pageClient(app);
    const { options } = await signInOptions(browser);
    const response = JSON.stringify(authenticator.get(options));
    const form = { _csrf: browser.preSessionCsrf(), response };
    const cookies = browser.jar.header();
    expect((await browser.post("/login/passkey", form)).status).toBe(303);
    const replay = pageClient(app);
    for (const pair of cookies.split("; ")) {
      const [name, value] = pair.split("=");
      replay.jar.values.set(name as string, value as string);
    }
    const again = await replay.post("/login/passkey", form);
    expect(again.status, "the attempt's challenge was taken").toBe(400);
    expect(await again.text()).toContain("took too long or was already used");
    expect(replay.jar.values.has("orgit_session")).toBe(false);
  });

  test("a challenge answered from another browser, or after 5 minutes, is refused", async () => {
    const { authenticator } = await memberWithPasskey();
    const browser = pageClient(app);
    const { options } = await signInOptions(browser);
    const other = pageClient(app);
    await other.get("/login");
    const foreign = await other.post("/login/passkey", {
      _csrf: other.preSessionCsrf(),
      response: JSON.stringify(authenticator.get(options)),
    });
    expect(foreign.status, "bound to the attempt cookie of the browser that asked").toBe(400);

    const late = await signInOptions(browser);
    clock.advance(PASSKEY_LIMITS.challengeTtlMs + 1);
    const answer = await browser.post("/login/passkey", {
      _csrf: browser.preSessionCsrf(),
      response: JSON.stringify(authenticator.get(late.options)),
    });
    expect(answer.status, "expired").toBe(400);
    expect(browser.jar.values.has("orgit_session")).toBe(false);
  });

  test("an answer for another origin, or to another challenge, is refused and nothing is stored", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const phished = await addPasskey(browser, authenticator, "Phished", {
      origin: "https://orgit.example.net",
    });
    expect(phished.status).toBe(400);
    expect(await phished.text()).toContain("could not be verified");
    const madeUp = await addPasskey(browser, authenticator, "Made up", {
      challenge: Buffer.from("chosen by the client").toString("base64url"),
    });
    expect(madeUp.status).toBe(400);
    expect(await rows(user.id)).toHaveLength(0);

    expect((await addPasskey(browser, authenticator, "Real")).status).toBe(303);
    const elsewhere = await passkeySignIn(pageClient(app), authenticator, {
      credential: authenticator.credentials[2],
      origin: "https://orgit.example.net",
    });
    expect(elsewhere.status, "a sign-in ceremony run on another site").toBe(401);
  });

  test("a user verification left out is refused: a passkey must be unlocked by its owner", async () => {
    const { user, browser } = await memberWithPasskey();
    const careless = new SoftAuthenticator(ORIGIN, false);
    expect((await addPasskey(browser, careless, "No PIN")).status).toBe(400);
    expect(await rows(user.id)).toHaveLength(1);
  });

  test("forms and options without the CSRF token or from another origin are 403 and change nothing", async () => {
    const { user, browser, authenticator } = await memberWithPasskey();
    const noToken = await browser.post("/settings/security/passkeys/options", {});
    expect(noToken.status).toBe(403);
    expect((await noToken.json()).error).toContain("expired or was not sent from this site");
    const foreign = await browser.post(
      "/settings/security/passkeys/options",
      { _csrf: browser.sessionCsrf() },
      { origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    const [row] = await rows(user.id);
    const remove = await browser.post(`/settings/security/passkeys/${row?.id}/remove`, {
      _csrf: "x".repeat(64),
    });
    expect(remove.status).toBe(403);
    expect(await rows(user.id), "still there").toHaveLength(1);
    const add = await browser.post("/settings/security/passkeys", { name: "x", response: "{}" });
    expect(add.status).toBe(403);

    const stranger = pageClient(app);
    await stranger.get("/login");
    expect((await stranger.post("/login/passkey/options", {})).status).toBe(403);
    const signIn = await stranger.post("/login/passkey", {
      response: JSON.stringify(authenticator.get({ challenge: "AAAA" })),
    });
    expect(signIn.status).toBe(403);
    expect(stranger.jar.values.has("orgit_session")).toBe(false);
  });

  test("another member can neither see nor remove my passkey (404), and it still signs me in", async () => {
    const mine = await memberWithPasskey();
    const [row] = await rows(mine.user.id);
    const other = await memberWithPassword(app, make, mine.org.id, "admin");
    const browser = pageClient(app);
    await browser.signIn(other.email);
    expect((await browser.get(`/settings/security/passkeys/${row?.id}/remove`)).status).toBe(404);
    const removal = await browser.post(`/settings/security/passkeys/${row?.id}/remove`, {
      _csrf: browser.sessionCsrf(),
    });
    expect(removal.status).toBe(404);
    expect(await (await browser.get("/settings/security")).text()).not.toContain("Laptop");
    expect(
      (
        await browser.post("/settings/security/passkeys/not-a-uuid/remove", {
          _csrf: browser.sessionCsrf(),
        })
      ).status,
    ).toBe(404);
    expect(await rows(mine.user.id)).toHaveLength(1);
    expect((await passkeySignIn(pageClient(app), mine.authenticator)).status).toBe(303);
  });

  test("bad input is a 400 page that keeps the form and stores nothing", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const unnamed = await addPasskey(browser, authenticator, "   ");
    expect(unnamed.status).toBe(400);
    expect(await unnamed.text()).toContain("Give the passkey a name of 1 to 100 characters.");
    const long = await addPasskey(browser, authenticator, "x".repeat(101));
    expect(long.status).toBe(400);
    await browser.post("/settings/security/passkeys/options", { _csrf: browser.sessionCsrf() });
    const noScript = await browser.post("/settings/security/passkeys", {
      _csrf: browser.sessionCsrf(),
      name: "Broken",
      response: "",
    });
    expect(noScript.status).toBe(400);
    expect(await noScript.text()).toContain("Passkeys need JavaScript");
    for (const response of ["not json", "[1]", '{"id":3}']) {
      const answer = await browser.post("/settings/security/passkeys", {
        _csrf: browser.sessionCsrf(),
        name: "Broken",
        response,
      });
      expect(answer.status, `response ${JSON.stringify(response)}`).toBe(400);
      expect(answer.headers.get("content-type")).toContain("text/html");
    }
    expect(await rows(user.id)).toHaveLength(0);

    const stranger = pageClient(app);
    await signInOptions(stranger);
    const withoutScript = await stranger.post("/login/passkey", {
      _csrf: stranger.preSessionCsrf(),
      response: "",
    });
    expect(withoutScript.status).toBe(400);
    expect(await withoutScript.text()).toContain("Passkeys need JavaScript");
    for (const response of ["{}", '{"id":"nope","response":{}}']) {
      await signInOptions(stranger);
      const answer = await stranger.post("/login/passkey", {
        _csrf: stranger.preSessionCsrf(),
        response,
      });
      expect([400, 401], `sign-in response ${JSON.stringify(response)}`).toContain(answer.status);
    }
    expect(stranger.jar.values.has("orgit_session")).toBe(false);
  });

  test("a member has at most 20 passkeys: the 21st is refused before the prompt and at the form", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const filler = (n: number) => ({
      userId: user.id,
      credentialId: `filler-${user.id}-${n}`,
      publicKey: "AA",
      name: `Key ${n}`,
    });
    await db()
      .insert(passkeyCredentials)
      .values(Array.from({ length: PASSKEY_LIMITS.perMember - 1 }, (_, n) => filler(n)));
    const options = await browser.post("/settings/security/passkeys/options", {
      _csrf: browser.sessionCsrf(),
    });
    expect(options.status, "the 20th may still start").toBe(200);
    await db().insert(passkeyCredentials).values(filler(99));
    const answer = await browser.post("/settings/security/passkeys", {
      _csrf: browser.sessionCsrf(),
      name: "One too many",
      response: JSON.stringify(new SoftAuthenticator(ORIGIN).create(await options.json())),
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("the most allowed");
    const refused = await browser.post("/settings/security/passkeys/options", {
      _csrf: browser.sessionCsrf(),
    });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toContain(`You have ${PASSKEY_LIMITS.perMember} passkeys`);
    expect(await rows(user.id)).toHaveLength(PASSKEY_LIMITS.perMember);
  });

  test("transports the browser reports are kept only when WebAuthn defines them", async () => {
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    const browser = pageClient(app);
    await browser.signIn(user.email);
    const added = await addPasskey(browser, new SoftAuthenticator(ORIGIN), "Key", {
      transports: ["usb", "x".repeat(500), "hybrid"],
    });
    expect(added.status).toBe(303);
    const [row] = await rows(user.id);
    expect(row?.transports).toEqual(["usb", "hybrid"]);
  });

  test("a session that may only add a passkey ends after 15 minutes", async () => {
    const org = await make.organization();
    await app.services.operator.updateOrganization(org.id, { requirePasskey: true });
    const admin = await memberWithPassword(app, make, org.id, "admin");
    const browser = pageClient(app);
    expect((await browser.signIn(admin.email)).headers.get("location")).toBe("/settings/security");
    clock.advance(ENROLL_ONLY_SESSION_MS - 60_000);
    expect((await browser.get("/settings/security")).status, "still open at 14 minutes").toBe(200);
    clock.advance(60_000);
    const ended = await browser.get("/settings/security");
    expect(ended.status).toBe(303);
    expect(ended.headers.get("location")).toBe("/login?expired");
  });
});
