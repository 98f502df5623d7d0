import { expect, setDefaultTimeout, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

// the one sign-in hashes a password at OWASP's scrypt cost (about a second, more under load)
setDefaultTimeout(120_000);

/**
 * The operator's read queries and the settings screen across two organizations: what the
 * operator reads of B, and what B's member sees and revokes on the settings screen, never
 * includes or changes anything of A.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  const keyNamed = (organizationId: string, userId: string, name: string) =>
    app.services.apiKeys.createApiKey({
      organizationId,
      userId,
      name,
      scopes: ["tickets:read"],
      expiresIn: "NEVER",
    });
  const whoami = async (key: string) => (await send(app, "/api/v1/whoami", { key })).status;

  test("operator: organization(B) lists only B's members, roles, ingest sources and keys; userAccounts lists each user's own memberships", async () => {
    const { a, b } = await twoOrganizations(make);
    await make.role(a.organizationId, "auditor", "TECHNICIAN", ["users.view"]);
    await make.role(b.organizationId, "desk", "TECHNICIAN", ["tickets.view_all"]);
    await app.services.operator.addIngestSource({
      organizationId: a.organizationId,
      cidr: "198.18.1.0/24",
    });
    await app.services.operator.addIngestSource({
      organizationId: b.organizationId,
      cidr: "198.18.2.0/24",
    });
    const aKey = await keyNamed(a.organizationId, a.user.id, "a-key");
    const bKey = await keyNamed(b.organizationId, b.user.id, "b-key");
    await expectUntouched(app, a.organizationId, async () => {
      const read = await graphql(
        app,
        TEST_ADMIN_TOKEN,
        `query ($id: ID!, $email: String) {
          organization(id: $id) {
            id
            members { user { id } role }
            roles { name }
            ingestSources { cidr }
            apiKeys { id name }
          }
          userAccounts(email: $email) { id memberships { organization { id } role } }
        }`,
        { id: b.organizationId, email: b.user.email },
      );
      expect(read.json.errors).toBeUndefined();
      const keyIds = read.json.data.organization.apiKeys.map((k: { id: string }) => k.id);
      expect(keyIds.sort()).toEqual([b.apiKey.id, bKey.apiKey.id].sort());
      expect({ ...read.json.data.organization, apiKeys: undefined }).toEqual({
        id: b.organizationId,
        members: [{ user: { id: b.user.id }, role: "admin" }],
        roles: [{ name: "desk" }],
        ingestSources: [{ cidr: "198.18.2.0/24" }],
        apiKeys: undefined,
      });
      expect(read.json.data.userAccounts).toEqual([
        {
          id: b.user.id,
          memberships: [{ organization: { id: b.organizationId }, role: "admin" }],
        },
      ]);
    });
    // and the other way round: A's reads name A's records only
    const readA = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      `query ($id: ID!) { organization(id: $id) { apiKeys { id } roles { name } } }`,
      { id: a.organizationId },
    );
    expect(readA.json.data.organization.roles).toEqual([{ name: "auditor" }]);
    expect(readA.json.data.organization.apiKeys.map((k: { id: string }) => k.id).sort()).toEqual(
      [a.apiKey.id, aKey.apiKey.id].sort(),
    );
  });

  test("settings screen: B's ADMIN sees only B and B's keys and cannot revoke A's key (404, the key still works); a member of both sees each one's keys apart", async () => {
    const { a, b } = await twoOrganizations(make);
    // the same custom role name in both, an ADMIN seat only in B: the member's seat must come
    // from B's role, and B must be listed once
    await make.role(a.organizationId, "desk", "TECHNICIAN", ["tickets.view_all"]);
    await make.role(b.organizationId, "desk", "ADMIN", ["users.view"]);
    const aDesk = await make.member({ organizationId: a.organizationId, role: "desk" });
    const aKey = await keyNamed(a.organizationId, a.user.id, "a-key");
    const bDesk = await memberWithPassword(app, make, b.organizationId, "desk");
    const bKey = await keyNamed(b.organizationId, bDesk.id, "b-own-key");
    const browser = pageClient(app);
    expect((await browser.signIn(bDesk.email)).status).toBe(303);
    const keyNames = (page: string) =>
      [...page.matchAll(/data-key-name="([^"]*)"/g)].map((m) => m[1]).sort();
    await expectUntouched(app, a.organizationId, async () => {
      const page = await browser.get("/settings/api-keys");
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text, "A is not among the member's organizations").not.toContain(a.organizationId);
      expect(text, "one organization, so no picker").not.toContain('data-testid="org-picker"');
      // an ADMIN seat sees every key of B (the other admin's too), none of A's
      expect(keyNames(text)).toEqual([b.apiKey.name, "b-own-key"].sort());
      expect((await browser.get(`/settings/api-keys?org=${a.organizationId}`)).status).toBe(404);
      for (const key of [aKey.apiKey, aDesk.apiKey]) {
        const confirm = await browser.get(
          `/settings/api-keys/${key.id}/revoke?org=${b.organizationId}`,
        );
        expect(confirm.status).toBe(404);
        const revoke = await browser.post(`/settings/api-keys/${key.id}/revoke`, {
          _csrf: browser.sessionCsrf(),
          org: b.organizationId,
        });
        expect(revoke.status, "A's key is not found for B's admin").toBe(404);
        expect(await revoke.text()).toContain("API key");
      }
      // the seat works in B: the other B admin's key is revoked
      const own = await browser.post(`/settings/api-keys/${b.apiKey.id}/revoke`, {
        _csrf: browser.sessionCsrf(),
        org: b.organizationId,
      });
      expect(own.status).toBe(303);
    });
    expect(await whoami(aKey.secret)).toBe(200);
    expect(await whoami(aDesk.key)).toBe(200);
    const revoked = await send(app, "/api/v1/whoami", { key: b.key });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ error: "API key revoked" });
    expect(await whoami(bKey.secret)).toBe(200);

    // once also a technician of A, the same person sees in each organization only its keys
    await app.services.operator.addMember({
      organizationId: a.organizationId,
      userId: bDesk.id,
      role: "technician",
    });
    await keyNamed(a.organizationId, bDesk.id, "mine-in-a");
    const inA = await (await browser.get(`/settings/api-keys?org=${a.organizationId}`)).text();
    expect(keyNames(inA), "a technician's own keys of A, not of B").toEqual(["mine-in-a"]);
    const inB = await (await browser.get(`/settings/api-keys?org=${b.organizationId}`)).text();
    expect(keyNames(inB)).toEqual(["b-own-key", "test key"]);
  });
}

describeEachDriver("tenant isolation: operator reads and settings screen", suite);
