import { expect, test } from "bun:test";
import { users } from "../../src/db/schema/index.ts";
import { emailSkeleton } from "../../src/modules/operator/emails.ts";
import { describeEachDriver, graphql, TEST_ADMIN_TOKEN, useTestApp } from "../helpers/harness.ts";

const LOOKALIKE =
  "This email looks the same as an existing user's (lookalike characters); check it is typed with plain letters";

/** docs/security.md, "Lookalike emails": what the operator's createUser refuses and stores. */
describeEachDriver("lookalike emails", (driver) => {
  const { app } = useTestApp(driver);
  const createUser = (email: string) =>
    graphql(
      app,
      TEST_ADMIN_TOKEN,
      "mutation($i: CreateUserInput!) { createUser(input: $i) { id email } }",
      { i: { email, firstName: "A", lastName: "B" } },
    );
  const emails = async () =>
    (await app.services.database.db.select({ email: users.email }).from(users)).map((u) => u.email);

  test("refused with a clear error, nothing stored: Cyrillic, Greek, rn for m, invisible characters, fullwidth of an existing one", async () => {
    expect((await createUser("alice@example.com")).json.errors).toBeUndefined();
    expect((await createUser("mary@example.org")).json.errors).toBeUndefined();
    const before = await emails();
    const cases: [string, string, string][] = [
      ["\u0430lice@example.com", "CONFLICT", LOOKALIKE], // Cyrillic а
      ["alic\u0435@ex\u0430mple.com", "CONFLICT", LOOKALIKE], // Cyrillic е and а
      ["al\u03B9ce@example.com", "CONFLICT", LOOKALIKE], // Greek iota
      ["rnary@example.org", "CONFLICT", LOOKALIKE],
      ["ＡＬＩＣＥ@ＥＸＡＭＰＬＥ.ＣＯＭ", "CONFLICT", "A user with this email already exists"], // fullwidth
      ["alice@EXAMPLE.com", "CONFLICT", "A user with this email already exists"],
      ["ali\u200Bce@example.com", "VALIDATION_FAILED", "Must not contain invisible characters"],
      ["alice\u202E@example.com", "VALIDATION_FAILED", "Must not contain invisible characters"],
      ["\u2060bob@example.com", "VALIDATION_FAILED", "Must not contain invisible characters"],
    ];
    for (const [email, code, message] of cases) {
      const { json } = await createUser(email);
      const error = json.errors?.[0];
      expect(error?.extensions?.code, JSON.stringify(email)).toBe(code);
      const said = code === "CONFLICT" ? error?.message : error?.extensions?.details?.[0]?.message;
      expect(said, JSON.stringify(email)).toBe(message);
    }
    expect(await emails(), "nothing stored").toEqual(before);
  });

  test("stored NFKC-normalised with the domain lower-cased; sign-in finds it however it is typed", async () => {
    const { json } = await createUser("  Bob.Smith@Ｅxample.NET ");
    expect(json.data.createUser.email).toBe("Bob.Smith@example.net");
    expect(emailSkeleton("ｂｏｂ@example.net")).toBe(emailSkeleton("b\u043Eb@example.net"));
    expect(emailSkeleton("bob@example.net")).not.toBe(emailSkeleton("rob@example.net"));
  });
});
