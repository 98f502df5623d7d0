import { expect, test } from "bun:test";
import { memberships, users } from "../../src/db/schema/index.ts";
import { emailSkeletons, looksLike } from "../../src/modules/operator/emails.ts";
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
      // only in Unicode's full table: Cherokee Ꭺ, Lisu ꓮ, dental click ǀ…
      ["\u13AAlice@example.com", "CONFLICT", LOOKALIKE], // Cherokee Ꭺ
      ["\uA4EElice@example.com", "CONFLICT", LOOKALIKE], // Lisu ꓮ
      ["ALICE@examp\u01C0\u0435.com", "CONFLICT", LOOKALIKE], // dental click ǀ, Cyrillic е
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
    expect(looksLike(emailSkeletons("ｂｏｂ@example.net"), "b\u043Eb@example.net")).toBe(true);
    expect(looksLike(emailSkeletons("bob@example.net"), "rob@example.net")).toBe(false);
  });

  test("the skeleton is Unicode's (UTS #39), not a hand table: digits, capitals and ligatures", () => {
    const alike = (a: string, b: string) => looksLike(emailSkeletons(a), b);
    expect(alike("paypal@x.com", "\u{1D52D}\u{1D4B6}\u1EFF\u{1D561}\u{1D552}\u2113@x.com")).toBe(
      true,
    );
    expect(alike("bob@x.com", "b0b@x.com"), "0 looks like O, and emails ignore case").toBe(true);
    expect(alike("Ian@x.com", "lan@x.com"), "a capital I looks like l").toBe(true);
    expect(alike("bill@x.com", "bi11@x.com"), "1 looks like l").toBe(true);
    expect(alike("a-b@x.com", "a\u2010b@x.com"), "a hyphen").toBe(true);
    expect(alike("ian@x.com", "lan@x.com"), "a small i does not look like l").toBe(false);
    expect(alike("ALICE@x.com", "alice@x.com"), "the same address in capitals").toBe(true);
    expect(alike("bob@example.net", "rob@example.net")).toBe(false);
  });

  test("two lookalikes created at once: exactly one is stored, the other refused", async () => {
    const results = await Promise.all(
      ["carol@example.com", "c\u0430rol@example.com", "car\u043El@example.com"].map(createUser),
    );
    const created = results.filter((r) => r.json.errors === undefined);
    expect(created.length, JSON.stringify(results.map((r) => r.json))).toBe(1);
    for (const r of results.filter((x) => x.json.errors !== undefined)) {
      expect(r.json.errors?.[0]?.message).toBe(LOOKALIKE);
    }
    const keys = emailSkeletons("carol@example.com");
    expect((await emails()).filter((e) => looksLike(keys, e)).length, "one stored").toBe(1);
  });

  test("addMember refuses a user whose email looks like a member's (users made before the check), 409 and no row", async () => {
    const db = app.services.database.db;
    const org = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      'mutation { createOrganization(input: { name: "Lookalikes" }) { id } }',
    );
    const organizationId = org.json.data.createOrganization.id as string;
    const real = (await createUser("dave@example.com")).json.data.createUser.id as string;
    // written straight to the table, as a row from before the check would be
    const [fake] = await db
      .insert(users)
      .values({ email: "d\u0430ve@example.com", firstName: "F", lastName: "K" })
      .returning();
    const addMember = (userId: string, role: string) =>
      graphql(
        app,
        TEST_ADMIN_TOKEN,
        "mutation($i: AddMemberInput!) { addMember(input: $i) { userId role } }",
        { i: { organizationId, userId, role } },
      );
    expect((await addMember(real, "technician")).json.errors).toBeUndefined();
    const refused = await addMember(fake?.id as string, "admin");
    expect(refused.json.errors?.[0]?.message).toBe(
      "This user's email looks the same as another member's of this organization (lookalike characters); check which of the two is genuine",
    );
    expect(refused.json.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(refused.json.errors?.[0]?.extensions?.status).toBe(409);
    const rows = await db.select().from(memberships);
    const ofOrg = rows.filter((m) => m.organizationId === organizationId);
    expect(
      ofOrg.map((m) => [m.userId, m.role]),
      "only the genuine member",
    ).toEqual([[real, "technician"]]);
    // the genuine member's role can still change; the lookalike may join another organization
    expect((await addMember(real, "admin")).json.data.addMember.role).toBe("admin");
    const other = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      'mutation { createOrganization(input: { name: "Elsewhere" }) { id } }',
    );
    const elsewhere = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      "mutation($i: AddMemberInput!) { addMember(input: $i) { userId } }",
      {
        i: {
          organizationId: other.json.data.createOrganization.id,
          userId: fake?.id,
          role: "technician",
        },
      },
    );
    expect(elsewhere.json.errors).toBeUndefined();
  });
});
