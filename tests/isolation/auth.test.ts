import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiKeys, users } from "../../src/db/schema/index.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { ALL_SCOPES, expectUntouched, twoOrganizations } from "./helpers.ts";

/**
 * Keys, memberships, roles and ingest sources across two organizations: a user who belongs to
 * both acts in one only through that organization's key, with that organization's role.
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  const whoami = async (key: string) => {
    const response = await send(app, "/api/v1/whoami", { key });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
    return { status: response.status, body: (await response.json()) as any };
  };

  test("a key acts in its own organization with that organization's role, even when the owner belongs to both", async () => {
    const { a, b } = await twoOrganizations(make);
    // the same custom role name in both organizations, with different permissions
    await make.role(a.organizationId, "desk", "TECHNICIAN", [
      "equipment.view_all",
      "equipment.manage",
    ]);
    await make.role(b.organizationId, "desk", "TECHNICIAN", ["equipment.view_all"]);
    const both = await make.user();
    await app.services.operator.addMember({
      organizationId: a.organizationId,
      userId: both.id,
      role: "desk",
    });
    await app.services.operator.addMember({
      organizationId: b.organizationId,
      userId: both.id,
      role: "desk",
    });
    const keyB = await app.services.apiKeys.createApiKey({
      organizationId: b.organizationId,
      userId: both.id,
      name: "B key",
      scopes: ALL_SCOPES,
      expiresIn: "NEVER",
    });
    await expectUntouched(app, a.organizationId, async () => {
      const me = await whoami(keyB.secret);
      expect(me.status).toBe(200);
      expect(me.body.organization.id).toBe(b.organizationId);
      // B's "desk" lacks equipment.manage, which A's "desk" has
      const bulk = await send(app, "/api/v1/equipments/bulk-create", {
        key: keyB.secret,
        body: { items: [{ name: "via-b-desk", type: "laptop" }] },
      });
      expect(bulk.status).toBe(403);
      expect(await bulk.json()).toEqual({ error: "Missing permission: equipment.manage" });
      const listed = await send(app, "/api/v1/equipments", { key: keyB.secret });
      expect(listed.status).toBe(200);
    });
    // and the other way round: without the organization in the role join, both keys would meet
    // the same "desk" row first, so one of the two answers would be wrong
    const keyA = await app.services.apiKeys.createApiKey({
      organizationId: a.organizationId,
      userId: both.id,
      name: "A key",
      scopes: ALL_SCOPES,
      expiresIn: "NEVER",
    });
    const created = await send(app, "/api/v1/equipments/bulk-create", {
      key: keyA.secret,
      body: { items: [{ name: "via-a-desk", type: "laptop" }] },
    });
    expect(await created.json()).toMatchObject({ created: 1 });
  });

  test("a user with another role in each organization acts with each key's own role", async () => {
    const { a, b } = await twoOrganizations(make);
    await make.role(b.organizationId, "kiosk", "TECHNICIAN", ["equipment.view_all"]);
    const both = await make.user();
    for (const [organizationId, role] of [
      [a.organizationId, "admin"],
      [b.organizationId, "kiosk"],
    ] as const)
      await app.services.operator.addMember({ organizationId, userId: both.id, role });
    const key = async (organizationId: string) =>
      (
        await app.services.apiKeys.createApiKey({
          organizationId,
          userId: both.id,
          name: "either",
          scopes: ALL_SCOPES,
          expiresIn: "NEVER",
        })
      ).secret;
    const [keyA, keyB] = [await key(a.organizationId), await key(b.organizationId)];
    // whichever membership a lookup without the organization met first, one of these is wrong
    expect((await whoami(keyA)).body).toMatchObject({
      organization: { id: a.organizationId },
      user: { id: both.id, role: "admin" },
    });
    expect((await whoami(keyB)).body).toMatchObject({
      organization: { id: b.organizationId },
      user: { id: both.id, role: "kiosk" },
    });
    const refused = await send(app, "/api/v1/equipments/bulk-create", {
      key: keyB,
      body: { items: [{ name: "via-b-kiosk", type: "laptop" }] },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: "Missing permission: equipment.manage" });
  });

  test("keys: creating one for a non-member is refused; revoking A's key leaves B's working; last use is recorded on the used key only", async () => {
    const { a, b } = await twoOrganizations(make);
    await send(app, "/api/projects", { key: a.key, body: { name: "A's" } });
    await expectUntouched(app, a.organizationId, async () => {
      const create = await graphql(
        app,
        TEST_ADMIN_TOKEN,
        `mutation ($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret } }`,
        {
          input: {
            organizationId: a.organizationId,
            userId: b.user.id,
            name: "B in A",
            scopes: ["tickets:read"],
            expiresIn: "NEVER",
          },
        },
      );
      expect(create.json.errors?.[0]).toMatchObject({
        message: "Validation failed",
        extensions: {
          details: [
            { path: ["input", "userId"], message: "The user is not a member of this organization" },
          ],
        },
      });
      expect((await whoami(b.key)).status).toBe(200);
    });
    const revoked = await app.services.apiKeys.revokeApiKey(a.apiKey.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect(await whoami(a.key)).toEqual({ status: 401, body: { error: "API key revoked" } });
    expect((await whoami(b.key)).status).toBe(200);
    await app.services.keys.flushLastUsed();
    const rows = await db.database.db.select().from(apiKeys).where(eq(apiKeys.id, b.apiKey.id));
    expect(rows[0]?.revokedAt).toBeNull();
    expect(rows[0]?.lastUsedAt).not.toBeNull();
  });

  test("operator: members, custom roles and ingest sources of one organization leave the other's alone", async () => {
    const { a, b } = await twoOrganizations(make);
    await make.role(a.organizationId, "auditor", "TECHNICIAN", ["users.view"]);
    const both = await make.user();
    await app.services.operator.addMember({
      organizationId: a.organizationId,
      userId: both.id,
      role: "technician",
    });
    await app.services.operator.addIngestSource({
      organizationId: a.organizationId,
      cidr: "198.18.0.0/24",
    });
    await expectUntouched(app, a.organizationId, async () => {
      // A's custom role is unknown in B
      const refused = await app.services.operator
        .addMember({ organizationId: b.organizationId, userId: both.id, role: "auditor" })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        details: [{ path: ["input", "role"], message: "Unknown role: auditor" }],
      });
      await make.role(b.organizationId, "auditor", "TECHNICIAN", ["alerts.view"]);
      await app.services.operator.addMember({
        organizationId: b.organizationId,
        userId: both.id,
        role: "auditor",
      });
      expect(await app.services.operator.removeMember(b.organizationId, both.id)).toBe(true);
      await app.services.operator.addIngestSource({
        organizationId: b.organizationId,
        cidr: "198.18.0.0/24",
      });
    });
  });

  test("operator: B's lookalike check compares B's members only; a lookalike of A's member joins B, A untouched", async () => {
    const { a, b } = await twoOrganizations(make);
    const suffix = crypto.randomUUID().slice(0, 8);
    const genuine = await make.user({ email: `dave-${suffix}@example.com` });
    await app.services.operator.addMember({
      organizationId: a.organizationId,
      userId: genuine.id,
      role: "technician",
    });
    // written straight to the table, as a row from before the check would be
    const [lookalike] = await app.services.database.db
      .insert(users)
      .values({ email: `d\u0430ve-${suffix}@example.com`, firstName: "F", lastName: "K" })
      .returning();
    await expectUntouched(app, a.organizationId, async () => {
      const joined = await app.services.operator.addMember({
        organizationId: b.organizationId,
        userId: lookalike?.id as string,
        role: "technician",
      });
      expect(joined).toMatchObject({ userId: lookalike?.id, role: "technician" });
    });
    // within A the same user is refused: the check is real, only scoped to one organization
    await expect(
      app.services.operator.addMember({
        organizationId: a.organizationId,
        userId: lookalike?.id as string,
        role: "technician",
      }),
    ).rejects.toThrow("looks the same as another member's");
  });

  test("keys: the 50 active keys of a member count per organization; B's keys do not stop A's", async () => {
    const { a, b } = await twoOrganizations(make);
    // a member of both: 49 more keys in A (its factory key makes 50); B still accepts keys
    await app.services.operator.addMember({
      organizationId: b.organizationId,
      userId: a.user.id,
      role: "admin",
    });
    const create = (organizationId: string) =>
      app.services.apiKeys.createApiKey({
        organizationId,
        userId: a.user.id,
        name: "k",
        scopes: ["tickets:read"],
        expiresIn: "NEVER",
      });
    for (let i = 0; i < 49; i++) await create(a.organizationId);
    await expect(create(a.organizationId)).rejects.toThrow("at most 50 active API keys");
    await expectUntouched(app, a.organizationId, async () => {
      const inB = await create(b.organizationId);
      expect(inB.apiKey.organizationId).toBe(b.organizationId);
    });
  });
}

describeEachDriver("tenant isolation: keys and operator", suite);
