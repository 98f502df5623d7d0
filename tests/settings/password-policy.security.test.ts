import { expect, setDefaultTimeout, test } from "bun:test";
import { userPasswords } from "../../src/db/schema/index.ts";
import { describeEachDriver, graphql, TEST_ADMIN_TOKEN, useTestApp } from "../helpers/harness.ts";
import { pageClient } from "../helpers/settings.ts";

setDefaultTimeout(60_000);

const TOO_COMMON = "Is too common or too easy to guess; choose a longer phrase of unrelated words";

/** docs/security.md, "Passwords": NIST SP 800-63B, no composition rules, common values refused. */
describeEachDriver("password policy", (driver) => {
  const { app, make } = useTestApp(driver);
  const setPassword = (userId: string, password: string) =>
    graphql(
      app,
      TEST_ADMIN_TOKEN,
      "mutation($u: ID!, $p: String!) { setPassword(userId: $u, password: $p) }",
      {
        u: userId,
        p: password,
      },
    );

  test("refused with a clear message, nothing stored: spaces only, common, common + digits, repeated, the email", async () => {
    const user = await make.user({ email: "jane.doe@example.com" });
    const cases: [string, string][] = [
      [" ".repeat(12), "Must not be only spaces"],
      ["\t\n".repeat(8), "Must not be only spaces"],
      ["unbelievable", TOO_COMMON],
      ["Unbelievable", TOO_COMMON],
      ["monkey123456", TOO_COMMON],
      ["dragon!!!!!!", TOO_COMMON],
      ["passwordpassword", TOO_COMMON],
      ["abcabcabcabc", TOO_COMMON],
      ["aaaaaaaaaaaa", TOO_COMMON],
      ["121212121212", TOO_COMMON],
      ["jane.doe@example.com!", "Must not contain your email address"],
      ["I am Jane.Doe, trust me", "Must not contain your email address"],
    ];
    for (const [password, message] of cases) {
      const { json } = await setPassword(user.id, password);
      expect(json.errors?.[0]?.extensions?.details, JSON.stringify(password)).toEqual([
        { path: ["password"], message },
      ]);
    }
    const stored = await app.services.database.db.select().from(userPasswords);
    expect(
      stored.filter((row) => row.userId === user.id),
      "nothing stored",
    ).toEqual([]);
  });

  test("a long passphrase of ordinary words, without composition rules, is accepted", async () => {
    const user = await make.user({ email: "sam@example.com" });
    for (const password of [
      "correct horse battery staple",
      "winter is coming to town",
      "ZZ top rocks 1983 forever",
    ]) {
      const { json } = await setPassword(user.id, password);
      expect(json.errors, password).toBeUndefined();
      expect(json.data.setPassword).toBe(true);
    }
  });

  test("the invitation page shows the reason and keeps the link usable", async () => {
    const org = await make.organization();
    const user = await make.user({ email: "lee@example.com" });
    await app.services.operator.addMember({
      organizationId: org.id,
      userId: user.id,
      role: "technician",
    });
    const { url } = await app.services.accounts.createInvitation(user.id);
    const path = new URL(url).pathname;
    const browser = pageClient(app);
    await browser.get(path);
    const refused = await browser.post(path, {
      _csrf: browser.preSessionCsrf(),
      password: "            ",
      passwordConfirm: "            ",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Password: Must not be only spaces.");
    const ok = await browser.post(path, {
      _csrf: browser.preSessionCsrf(),
      password: "correct horse battery staple",
      passwordConfirm: "correct horse battery staple",
    });
    expect(ok.status).toBe(303);
  });
});
