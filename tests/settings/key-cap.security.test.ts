import { expect, setDefaultTimeout, test } from "bun:test";
import { ApiError } from "../../src/errors.ts";
import { MAX_ACTIVE_KEYS_PER_MEMBER } from "../../src/modules/operator/api-keys.ts";
import { describeEachDriver, graphql, TEST_ADMIN_TOKEN, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, pageClient } from "../helpers/settings.ts";

setDefaultTimeout(60_000);

/** docs/security.md: a member holds at most 50 active API keys in an organization. */
describeEachDriver("active keys per member", (driver) => {
  const { app, make } = useTestApp(driver);
  const keysOf = async (userId: string) =>
    (await app.services.database.db.query.apiKeys.findMany()).filter((k) => k.userId === userId);

  const create = (organizationId: string, userId: string, name = "k") =>
    app.services.apiKeys.createApiKey({
      organizationId,
      userId,
      name,
      scopes: ["tickets:read"],
      expiresIn: "NEVER",
    });

  test("the 51st key is refused on the settings page with a 409 and a clear message; a revoked key frees a place", async () => {
    expect(MAX_ACTIVE_KEYS_PER_MEMBER).toBe(50);
    const org = await make.organization();
    const user = await memberWithPassword(app, make, org.id);
    for (let i = 0; i < 50; i++) await create(org.id, user.id, `k${i}`);
    const browser = pageClient(app);
    expect((await browser.signIn(user.email)).status).toBe(303);
    const form = {
      _csrf: browser.sessionCsrf(),
      org: org.id,
      name: "one too many",
      scopes: "tickets:read",
      expiration: "NEVER",
    };
    const refused = await browser.post("/settings/api-keys", form);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(
      "You can have at most 50 active API keys in an organization; revoke one first",
    );
    expect(await keysOf(user.id)).toHaveLength(50);
    const [first] = await keysOf(user.id);
    await app.services.apiKeys.revokeApiKey((first as { id: string }).id);
    const created = await browser.post("/settings/api-keys", form);
    expect(created.status, "a revoked key does not count").toBe(303);
  });

  test("the operator's createApiKey is refused the same way, in GraphQL's error format", async () => {
    const org = await make.organization();
    const user = await make.user();
    await app.services.operator.addMember({
      organizationId: org.id,
      userId: user.id,
      role: "admin",
    });
    for (let i = 0; i < 50; i++) await create(org.id, user.id, `k${i}`);
    const { json } = await graphql(
      app,
      TEST_ADMIN_TOKEN,
      `mutation($i: CreateApiKeyInput!) { createApiKey(input: $i) { secret } }`,
      {
        i: {
          organizationId: org.id,
          userId: user.id,
          name: "x",
          scopes: ["tickets:read"],
          expiresIn: "NEVER",
        },
      },
    );
    expect(json.data).toBeNull();
    expect(json.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(await keysOf(user.id)).toHaveLength(50);
  });

  test("60 creations at once end with exactly 50 active keys", async () => {
    const org = await make.organization();
    const user = await make.user();
    await app.services.operator.addMember({
      organizationId: org.id,
      userId: user.id,
      role: "admin",
    });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => create(org.id, user.id, `p${i}`)),
    );
    const refused = outcomes.filter(
      (o) => o.status === "rejected" && o.reason instanceof ApiError && o.reason.status === 409,
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(50);
    expect(refused).toHaveLength(10);
    expect(await keysOf(user.id)).toHaveLength(50);
  });
});
