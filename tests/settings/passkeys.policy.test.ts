import { expect, setDefaultTimeout, test } from "bun:test";
import { runCli } from "../../src/cli/commands.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { SoftAuthenticator } from "../helpers/authenticator.ts";
import { describeEachDriver, graphql, TEST_ADMIN_TOKEN, useTestApp } from "../helpers/harness.ts";
import { addPasskey, ORIGIN, passkeySignIn } from "../helpers/passkeys.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";

setDefaultTimeout(120_000);

const UPDATE = `mutation ($id: ID!, $input: UpdateOrganizationInput!) {
  updateOrganization(id: $id, input: $input) { id requirePasskey }
}`;

/** The organization policy requirePasskey for ADMIN seats (docs/decisions.md §12). */
describeEachDriver("passkeys, requirePasskey policy", (driver) => {
  const { app, make } = useTestApp(driver, { env: { PUBLIC_BASE_URL: ORIGIN } });

  const requirePasskey = async (id: string, on: boolean) => {
    const { json } = await graphql(app, TEST_ADMIN_TOKEN, UPDATE, {
      id,
      input: { requirePasskey: on },
    });
    expect(json.errors).toBeUndefined();
    expect(json.data.updateOrganization.requirePasskey).toBe(on);
  };

  test("the operator sets and clears the policy over GraphQL and the CLI; bad input is a 400", async () => {
    const org = await make.organization();
    const { json: before } = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      "query ($id: ID!) { organization(id: $id) { requirePasskey } }",
      { id: org.id },
    );
    expect(before.data.organization.requirePasskey, "off by default").toBe(false);
    await requirePasskey(org.id, true);

    let out = "";
    const code = await runCli(["update-org", "--id", org.id, "--require-passkey", "false"], {
      fetch: (input, init) => app.handle(setPeerAddress(new Request(input, init), "127.0.0.1")),
      env: { ORGIT_URL: "http://localhost", ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      stdout: (s) => {
        out += s;
      },
      stderr: () => {},
    });
    expect(code).toBe(0);
    expect(out).toContain("requirePasskey: false");

    const { response, json } = await graphql(app, TEST_ADMIN_TOKEN, UPDATE, {
      id: org.id,
      input: { requirePasskey: "yes" },
    });
    expect(response.status).toBe(400);
    expect(json.errors?.length).toBeGreaterThan(0);
    const { json: member } = await graphql(app, undefined, UPDATE, {
      id: org.id,
      input: { requirePasskey: true },
    });
    expect(member.data ?? null, "not without the operator token").toBeNull();
    const { json: after } = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      "query ($id: ID!) { organization(id: $id) { requirePasskey } }",
      { id: org.id },
    );
    expect(after.data.organization.requirePasskey, "unchanged by refusals").toBe(false);
  });

  test("with the policy, an ADMIN seat's password is refused with a clear message; their passkey works", async () => {
    const org = await make.organization();
    const admin = await memberWithPassword(app, make, org.id, "admin");
    const browser = pageClient(app);
    await browser.signIn(admin.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    expect((await addPasskey(browser, authenticator, "Laptop")).status).toBe(303);
    await requirePasskey(org.id, true);

    const withPassword = pageClient(app);
    const refused = await withPassword.signIn(admin.email);
    expect(refused.status).toBe(403);
    const text = await refused.text();
    expect(text).toContain("requires administrators to sign in with a passkey");
    expect(text, "the form keeps the email").toContain(`value="${admin.email}"`);
    expect(withPassword.jar.values.has("orgit_session")).toBe(false);

    const wrong = await pageClient(app).signIn(admin.email, "not the password at all");
    expect(wrong.status, "a wrong password says nothing about the policy").toBe(401);

    expect((await passkeySignIn(pageClient(app), authenticator)).status).toBe(303);
  });

  test("the policy leaves technicians and other organizations' admins on their passwords; a custom ADMIN-seat role counts", async () => {
    const strict = await make.organization();
    const relaxed = await make.organization();
    await requirePasskey(strict.id, true);
    const technician = await memberWithPassword(app, make, strict.id, "technician");
    expect((await pageClient(app).signIn(technician.email)).status).toBe(303);
    const otherAdmin = await memberWithPassword(app, make, relaxed.id, "admin");
    const relaxedSignIn = await pageClient(app).signIn(otherAdmin.email);
    expect(relaxedSignIn.status).toBe(303);
    expect(relaxedSignIn.headers.get("location")).toBe("/settings/api-keys");

    await app.services.operator.createRole({
      organizationId: strict.id,
      name: "it-lead",
      seat: "ADMIN",
      permissions: ["tickets.view_all"],
    });
    const lead = await memberWithPassword(app, make, strict.id, "it-lead");
    const leadSignIn = await pageClient(app).signIn(lead.email);
    expect(leadSignIn.headers.get("location"), "an ADMIN seat without a passkey").toBe(
      "/settings/security",
    );
  });

  test("an ADMIN seat without a passkey: the password opens only the security page, and adding one ends that session", async () => {
    const org = await make.organization();
    await requirePasskey(org.id, true);
    const admin = await memberWithPassword(app, make, org.id, "admin");
    const browser = pageClient(app);
    const signIn = await browser.signIn(admin.email);
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get("location")).toBe("/settings/security");
    const page = await browser.get("/settings/security");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Until then this is the only page you can use.");

    const keys = await browser.get("/settings/api-keys");
    expect(keys.status, "the keys page treats the session as signed out").toBe(303);
    expect(keys.headers.get("location")).toBe("/login?expired");

    const again = pageClient(app);
    await again.signIn(admin.email);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await addPasskey(again, authenticator, "First passkey");
    expect(added.status).toBe(303);
    expect(added.headers.get("location")).toBe("/login?passkey_added");
    expect(again.jar.values.has("orgit_session"), "the password session is over").toBe(false);
    const login = await again.get("/login?passkey_added");
    expect(await login.text()).toContain("Passkey added. Sign in with it now.");

    const withPassword = await pageClient(app).signIn(admin.email);
    expect(withPassword.status, "now that a passkey exists, the password is refused").toBe(403);
    const withPasskey = pageClient(app);
    expect((await passkeySignIn(withPasskey, authenticator)).status).toBe(303);
    expect((await withPasskey.get("/settings/api-keys")).status).toBe(200);
  });

  test("an enrol-only session can sign out", async () => {
    const org = await make.organization();
    await requirePasskey(org.id, true);
    const admin = await memberWithPassword(app, make, org.id, "admin");
    const browser = pageClient(app);
    await browser.signIn(admin.email);
    const out = await browser.post("/logout", { _csrf: browser.sessionCsrf() });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/login?signed_out");
    expect((await browser.get("/settings/security")).headers.get("location")).toBe("/login");
  });

  test("the operator sees how many passkeys each member has, over GraphQL and in show-org", async () => {
    const org = await make.organization();
    const admin = await memberWithPassword(app, make, org.id, "admin");
    const tech = await memberWithPassword(app, make, org.id, "technician");
    const browser = pageClient(app);
    await browser.signIn(admin.email);
    await addPasskey(browser, new SoftAuthenticator(ORIGIN), "Laptop");
    await addPasskey(browser, new SoftAuthenticator(ORIGIN), "YubiKey");

    const query = "query ($id: ID!) { organization(id: $id) { members { user { id } passkeys } } }";
    const { json } = await graphql(app, TEST_ADMIN_TOKEN, query, { id: org.id });
    const count = (id: string) =>
      json.data.organization.members.find((m: { user: { id: string } }) => m.user.id === id)
        ?.passkeys;
    expect(count(admin.id)).toBe(2);
    expect(count(tech.id)).toBe(0);

    let out = "";
    const code = await runCli(["show-org", "--id", org.id], {
      fetch: (input, init) => app.handle(setPeerAddress(new Request(input, init), "127.0.0.1")),
      env: { ORGIT_URL: "http://localhost", ADMIN_TOKEN: TEST_ADMIN_TOKEN },
      stdout: (s) => {
        out += s;
      },
      stderr: () => {},
    });
    expect(code).toBe(0);
    expect(out).toContain("requirePasskey: false");
    expect(out).toMatch(new RegExp(`${admin.email} .*passkeys=2`));
    expect(out).toMatch(new RegExp(`${tech.email} .*passkeys=0`));
  });
});
