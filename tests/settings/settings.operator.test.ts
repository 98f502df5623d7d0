import { expect, setDefaultTimeout, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { runCli } from "../../src/cli/commands.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { describeEachDriver, graphql, TEST_ADMIN_TOKEN, useTestApp } from "../helpers/harness.ts";
import { PASSWORD, pageClient } from "../helpers/settings.ts";

// set-password hashes at OWASP's scrypt cost (about a second here)
setDefaultTimeout(120_000);

/** The CLI with its HTTP calls routed into `app`, as tests/system/cli.test.ts does. */
async function cli(app: OrgitApp, argv: string[], env: Record<string, string> = {}) {
  let out = "";
  let err = "";
  const code = await runCli(argv, {
    fetch: (input, init) => app.handle(setPeerAddress(new Request(input, init), "127.0.0.1")),
    env: { ORGIT_URL: "http://localhost", ADMIN_TOKEN: TEST_ADMIN_TOKEN, ...env },
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
  });
  return { code, out, err };
}

const ORG_DETAILS = `query($id: ID!) { organization(id: $id) {
  id name
  members { role user { id email } }
  roles { name seat }
  ingestSources { cidr label }
  apiKeys { id name prefix scopes status owner { email } }
} }`;

describeEachDriver("settings screen, operator API and CLI", (driver) => {
  const { app, make } = useTestApp(driver);

  test("organization(id) shows its own members, roles, sources and key metadata, never another's", async () => {
    const a = await make.member({ role: "admin", scopes: ["tickets:read"] });
    const b = await make.member({ role: "technician" });
    await make.role(a.organizationId, "auditor", "USER", ["users.view"]);
    await app.services.operator.addIngestSource({
      organizationId: a.organizationId,
      cidr: "10.0.0.0/8",
      label: "lan",
    });
    const { json } = await graphql(app, TEST_ADMIN_TOKEN, ORG_DETAILS, { id: a.organizationId });
    const org = json.data.organization;
    expect(org.members).toEqual([{ role: "admin", user: { id: a.user.id, email: a.user.email } }]);
    expect(org.roles).toEqual([{ name: "auditor", seat: "USER" }]);
    expect(org.ingestSources).toEqual([{ cidr: "10.0.0.0/8", label: "lan" }]);
    expect(org.apiKeys).toEqual([
      {
        id: a.apiKey.id,
        name: "test key",
        prefix: a.key.slice(0, 12),
        scopes: ["tickets:read"],
        status: "ACTIVE",
        owner: { email: a.user.email },
      },
    ]);
    expect(JSON.stringify(json)).not.toContain(a.key);
    expect(JSON.stringify(json)).not.toContain(b.user.email);

    const all = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      "{ organizations(limit: 100) { data { id } pagination { total } } }",
    );
    const ids = all.json.data.organizations.data.map((o: { id: string }) => o.id);
    expect(ids).toContain(a.organizationId);
    expect(ids).toContain(b.organizationId);

    const users = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      `query($e: String) { userAccounts(email: $e) { id hasPassword memberships { role organization { id } } } }`,
      { e: a.user.email.toUpperCase() },
    );
    expect(users.json.data.userAccounts).toEqual([
      {
        id: a.user.id,
        hasPassword: false,
        memberships: [{ role: "admin", organization: { id: a.organizationId } }],
      },
    ]);
  });

  test("the operator queries and mutations refuse API keys", async () => {
    const a = await make.member({ role: "admin" });
    for (const query of [
      "{ organizations { data { id } } }",
      `{ organization(id: "${a.organizationId}") { id } }`,
      "{ userAccounts { id } }",
      `mutation { createInvitation(userId: "${a.user.id}") { url } }`,
      `mutation { setPassword(userId: "${a.user.id}", password: "${PASSWORD}") }`,
    ]) {
      const { json } = await graphql(app, a.key, query);
      expect(json.errors?.[0]?.message, query).toBe("Operator access required");
    }
    const { json } = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      `mutation($id: ID!) { setPassword(userId: $id, password: "short") }`,
      { id: a.user.id },
    );
    expect(json.errors?.[0]?.extensions?.details).toEqual([
      { path: ["password"], message: "Must be at least 12 characters" },
    ]);
  });

  test("CLI: invite-user gives a link that works once; set-password, list-orgs, show-org, list-keys", async () => {
    const a = await make.member({ role: "technician", scopes: ["equipment:read"] });
    const invite = await cli(app, ["invite-user", "--user", a.user.id]);
    expect(invite.code, invite.err).toBe(0);
    const url = invite.out.match(/^ {2}url: (.*)$/m)?.[1] as string;
    expect(url).toMatch(/\/invite\/[0-9A-Za-z]{43}$/);
    const browser = pageClient(app);
    expect((await browser.get(new URL(url).pathname)).status).toBe(200);

    const noPassword = await cli(app, ["set-password", "--user", a.user.id]);
    expect(noPassword.code).toBe(2);
    expect(noPassword.err).toContain("ORGIT_NEW_PASSWORD");
    const set = await cli(app, ["set-password", "--user", a.user.id], {
      ORGIT_NEW_PASSWORD: PASSWORD,
    });
    expect(set.code, set.err).toBe(0);
    expect((await pageClient(app).signIn(a.user.email)).status, "the password works").toBe(303);

    const orgs = await cli(app, ["list-orgs", "--limit", "100"]);
    expect(orgs.code, orgs.err).toBe(0);
    expect(orgs.out).toContain(a.organizationId);

    const show = await cli(app, ["show-org", "--id", a.organizationId]);
    expect(show.code, show.err).toBe(0);
    expect(show.out).toContain(`${a.user.id}  technician`);
    expect(show.out).toContain(a.apiKey.id);
    expect(show.out).not.toContain(a.key);

    const keys = await cli(app, ["list-keys", "--org", a.organizationId]);
    expect(keys.code, keys.err).toBe(0);
    expect(keys.out).toContain(`${a.apiKey.id}  active`);
    expect(keys.out).toContain(`owner=${a.user.email}`);

    const missing = await cli(app, ["show-org", "--id", crypto.randomUUID()]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("Organization not found");
  });
});
