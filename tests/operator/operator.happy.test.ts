import { expect, test } from "bun:test";
import { sha256Hex } from "../../src/auth/keys.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import {
  ADD_INGEST,
  ADD_MEMBER,
  CREATE_KEY,
  CREATE_ORG,
  CREATE_RELEASE,
  CREATE_ROLE,
  CREATE_USER,
} from "../helpers/operator-ops.ts";

function suite(driver: DriverName) {
  const op = async (query: string, variables: Record<string, unknown>) => {
    const { response, json } = await graphql(app, TEST_ADMIN_TOKEN, query, variables);
    expect(response.status).toBe(200);
    expect(json.errors).toBeUndefined();
    return json.data;
  };

  const { app, db } = useTestApp(driver);

  test("org → user → member → key: the printed secret works at once, and is stored only hashed", async () => {
    const { createOrganization: org } = await op(CREATE_ORG, { input: { name: "Initech" } });
    expect(org).toMatchObject({
      name: "Initech",
      plan: "PRO",
      dailyQuota: null,
      unlimitedQuota: false,
    });
    const { createUser: user } = await op(CREATE_USER, {
      input: { email: "peter@initech.example", firstName: "Peter", lastName: "Gibbons" },
    });
    await op(ADD_MEMBER, {
      input: { organizationId: org.id, userId: user.id, role: "technician" },
    });
    const { createApiKey } = await op(CREATE_KEY, {
      input: {
        organizationId: org.id,
        userId: user.id,
        name: "CI",
        scopes: ["tickets:read"],
        expiresIn: "DAYS_90",
      },
    });
    expect(createApiKey.secret).toMatch(/^orgit_[0-9A-Za-z]{40}$/);
    expect(createApiKey.apiKey).toMatchObject({ name: "CI", scopes: ["tickets:read"] });
    expect(createApiKey.secret.startsWith(createApiKey.apiKey.prefix)).toBe(true);

    const whoami = await (await send(app, "/api/v1/whoami", { key: createApiKey.secret })).json();
    expect(whoami).toMatchObject({
      organization: { id: org.id },
      user: { id: user.id, role: "technician" },
    });

    const row = await db.database.db.query.apiKeys.findFirst({
      where: (k, { eq }) => eq(k.id, createApiKey.apiKey.id),
    });
    expect(row?.keyHash).toBe(sha256Hex(createApiKey.secret));
    expect(JSON.stringify(row)).not.toContain(createApiKey.secret);
  });

  test("the secret is never readable again: ApiKey has no secret field", async () => {
    const { json } = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      '{ __type(name: "ApiKey") { fields { name } } }',
    );
    const fields = json.data.__type.fields.map((f: { name: string }) => f.name);
    expect(fields).not.toContain("secret");
    expect(fields).not.toContain("keyHash");
  });

  test("every expiration choice and an explicit expiresAt", async () => {
    const { createOrganization: org } = await op(CREATE_ORG, {
      input: { name: "Expiry Ltd", plan: "ENTERPRISE" },
    });
    const { createUser: user } = await op(CREATE_USER, {
      input: { email: "exp@example.com", firstName: "E", lastName: "X" },
    });
    await op(ADD_MEMBER, { input: { organizationId: org.id, userId: user.id, role: "admin" } });
    const days = { NEVER: null, DAYS_30: 30, DAYS_90: 90, MONTHS_6: 181, YEAR_1: 365 } as const;
    for (const [choice, approx] of Object.entries(days)) {
      const { createApiKey } = await op(CREATE_KEY, {
        input: {
          organizationId: org.id,
          userId: user.id,
          name: choice,
          scopes: ["users:read"],
          expiresIn: choice,
        },
      });
      if (approx === null) expect(createApiKey.apiKey.expiresAt).toBeNull();
      else {
        const got = (Date.parse(createApiKey.apiKey.expiresAt) - Date.now()) / 86_400_000;
        expect(Math.abs(got - approx)).toBeLessThan(3);
      }
    }
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const { createApiKey } = await op(CREATE_KEY, {
      input: {
        organizationId: org.id,
        userId: user.id,
        name: "exact",
        scopes: ["users:read"],
        expiresAt: at,
      },
    });
    expect(createApiKey.apiKey.expiresAt).toBe(at);
  });

  test("custom role, update organization, ingest source, agent release, remove member", async () => {
    const { createOrganization: org } = await op(CREATE_ORG, {
      input: { name: "Roles Inc", dailyQuota: 500 },
    });
    expect(org.dailyQuota).toBe(500);
    const { createRole } = await op(CREATE_ROLE, {
      input: {
        organizationId: org.id,
        name: "auditor",
        seat: "TECHNICIAN",
        permissions: ["users.view", "users.manage"],
      },
    });
    expect(createRole).toMatchObject({
      name: "auditor",
      seat: "TECHNICIAN",
      permissions: ["users.view", "users.manage"],
    });
    const updated = await op(
      `mutation($id: ID!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { plan dailyQuota unlimitedQuota } }`,
      { id: org.id, input: { plan: "ENTERPRISE", dailyQuota: null, unlimitedQuota: true } },
    );
    expect(updated.updateOrganization).toEqual({
      plan: "ENTERPRISE",
      dailyQuota: null,
      unlimitedQuota: true,
    });
    const { addIngestSource } = await op(ADD_INGEST, {
      input: { organizationId: org.id, cidr: "203.0.113.77/24", label: "NOC" },
    });
    expect(addIngestSource).toMatchObject({ cidr: "203.0.113.0/24", label: "NOC" });
    const single = await op(ADD_INGEST, { input: { organizationId: org.id, cidr: "2001:db8::1" } });
    expect(single.addIngestSource.cidr).toBe("2001:db8::1/128");
    const { createAgentRelease } = await op(CREATE_RELEASE, {
      input: {
        version: "3.0.0",
        platform: "linux",
        architecture: "arm64",
        channel: "stable",
        downloadUrl: "https://downloads.example.com/agent-3.0.0",
        sha256: "AB".repeat(32),
      },
    });
    expect(createAgentRelease).toMatchObject({ version: "3.0.0", sha256: "ab".repeat(32) });

    const { createUser: user } = await op(CREATE_USER, {
      input: { email: "aud@example.com", firstName: "A", lastName: "U" },
    });
    await op(ADD_MEMBER, { input: { organizationId: org.id, userId: user.id, role: "auditor" } });
    const removed = await op(
      `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`,
      {
        o: org.id,
        u: user.id,
      },
    );
    expect(removed.removeMember).toBe(true);
    const again = await op(
      `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`,
      {
        o: org.id,
        u: user.id,
      },
    );
    expect(again.removeMember).toBe(false);
  });
}

describeEachDriver("operator API (happy)", suite);
