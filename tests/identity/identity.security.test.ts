import { expect, test } from "bun:test";
import { generateApiKey } from "../../src/auth/keys.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";

const HOUR = 3_600_000;

async function expect401(response: Response, message: string) {
  expect(response.status).toBe(401);
  expect(await response.json()).toEqual({ error: message });
}

function suite(driver: DriverName) {
  let clock = Date.now();

  const { app, db, make } = useTestApp(driver, { now: () => new Date(clock) });

  test("no Authorization header → 401 Missing API key", async () => {
    await expect401(await send(app, "/api/v1/whoami"), "Missing API key");
  });

  test("a non-Bearer scheme → 401 Missing API key", async () => {
    const { key } = await make.member();
    const response = await send(app, "/api/v1/whoami", {
      headers: { authorization: `Basic ${key}` },
    });
    await expect401(response, "Missing API key");
  });

  test("malformed keys are refused without a database query", async () => {
    const valid = generateApiKey();
    const wrongChecksum = valid.slice(0, -1) + (valid.endsWith("A") ? "B" : "A");
    const before = db.database.stats.queries;
    for (const bad of [
      "garbage",
      "orgit_short",
      wrongChecksum,
      `${valid}x`,
      valid.replace("orgit_", "orgix_"),
    ]) {
      await expect401(await send(app, "/api/v1/whoami", { key: bad }), "Invalid API key");
    }
    expect(db.database.stats.queries - before).toBe(0);
  });

  test("a well-formed key that was never issued → 401 Invalid API key", async () => {
    await expect401(
      await send(app, "/api/v1/whoami", { key: generateApiKey() }),
      "Invalid API key",
    );
  });

  test("an expired key → 401 API key expired, on the request after the instant passes", async () => {
    const { key } = await make.member({ expiresAt: new Date(clock + HOUR) });
    expect((await send(app, "/api/v1/whoami", { key })).status).toBe(200);
    clock += 2 * HOUR;
    try {
      await expect401(await send(app, "/api/v1/whoami", { key }), "API key expired");
    } finally {
      clock -= 2 * HOUR;
    }
  });

  test("revocation is seen on the very next request", async () => {
    const { key, apiKey } = await make.member();
    expect((await send(app, "/api/v1/whoami", { key })).status).toBe(200);
    await app.services.apiKeys.revokeApiKey(apiKey.id);
    await expect401(await send(app, "/api/v1/whoami", { key }), "API key revoked");
  });

  test("an owner removed from the organization makes the key 401 at once", async () => {
    const { key, organizationId, user } = await make.member();
    expect((await send(app, "/api/v1/health", { key })).status).toBe(200);
    await app.services.operator.removeMember(organizationId, user.id);
    await expect401(
      await send(app, "/api/v1/health", { key }),
      "API key owner is no longer a member of this organization",
    );
  });

  test("revocation and removal are seen by a second instance sharing the database", async () => {
    const other = await buildTestApp(await db.openAnother());
    try {
      const first = await make.member();
      const second = await make.member();
      // prime the second instance's cache
      expect((await send(other, "/api/v1/whoami", { key: first.key })).status).toBe(200);
      expect((await send(other, "/api/v1/whoami", { key: second.key })).status).toBe(200);
      const revoked = await graphql(
        app,
        TEST_ADMIN_TOKEN,
        `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`,
        {
          id: first.apiKey.id,
        },
      );
      expect(revoked.json.data?.revokeApiKey.revokedAt).toBeString();
      await expect401(await send(other, "/api/v1/whoami", { key: first.key }), "API key revoked");
      await app.services.operator.removeMember(second.organizationId, second.user.id);
      await expect401(
        await send(other, "/api/v1/whoami", { key: second.key }),
        "API key owner is no longer a member of this organization",
      );
    } finally {
      await other.stop();
    }
  });

  test("FREE plan → 403 API access requires the Pro plan; upgrading takes effect at once", async () => {
    const { key, organizationId } = await make.member({ plan: "FREE" });
    const response = await send(app, "/api/v1/whoami", { key });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "API access requires the Pro plan" });
    await app.services.operator.updateOrganization(organizationId, { plan: "PRO" });
    expect((await send(app, "/api/v1/whoami", { key })).status).toBe(200);
  });

  test("a seat other than administrator or technician → 403", async () => {
    const org = await make.organization();
    await make.role(org.id, "viewer", "USER", ["tickets.view_all"]);
    const { key } = await make.member({ organizationId: org.id, role: "viewer" });
    const response = await send(app, "/api/v1/health", { key });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: "API access requires an administrator or technician seat",
    });
  });

  test("GraphQL applies the same rules: whoami over /graphql, 401 without a key", async () => {
    const { key, organizationId } = await make.member();
    const ok = await graphql(app, key, "{ whoami { organization { id } user { role } } }");
    expect(ok.response.status).toBe(200);
    expect(ok.json.data.whoami).toEqual({
      organization: { id: organizationId },
      user: { role: "admin" },
    });
    const anonymous = await graphql(app, undefined, "{ whoami { user { id } } }");
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.json).toEqual({ error: "Missing API key" });
    const free = await make.member({ plan: "FREE" });
    const denied = await graphql(app, free.key, "{ whoami { user { id } } }");
    expect(denied.json.errors?.[0]).toMatchObject({
      message: "API access requires the Pro plan",
      extensions: { code: "FORBIDDEN", status: 403 },
    });
  });

  test("an API key cannot call operator mutations", async () => {
    const { key } = await make.member();
    const result = await graphql(
      app,
      key,
      `mutation { createOrganization(input: { name: "Evil" }) { id } }`,
    );
    expect(result.json.errors?.[0]).toMatchObject({
      message: "Operator access required",
      extensions: { code: "FORBIDDEN" },
    });
    const rows = await db.database.db.query.organizations.findMany({
      where: (o, { eq }) => eq(o.name, "Evil"),
    });
    expect(rows).toHaveLength(0);
  });

  test("GraphQL queries are bounded in cost, so one request cannot exhaust the service", async () => {
    const { key } = await make.member();
    const wide = `{ ${Array.from({ length: 600 }, (_, i) => `a${i}: whoami { organization { id name } user { id role } }`).join(" ")} }`;
    const result = await graphql(app, key, wide);
    expect(result.response.status).toBe(400);
    expect(result.json.data).toBeUndefined();
    // refused by the first limit it meets (tokens, then aliases, then cost): see docs/security.md
    expect(result.json.errors?.[0]?.message).toMatch(/token limit|aliases limit|cost/i);
  });
}

describeEachDriver("identity (security)", suite);
