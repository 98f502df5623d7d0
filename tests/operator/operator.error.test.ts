import { beforeAll, expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import {
  ADD_INGEST,
  ADD_MEMBER,
  CREATE_KEY,
  CREATE_RELEASE,
  CREATE_ROLE,
  CREATE_USER,
} from "../helpers/operator-ops.ts";

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);
  let orgId: string;
  let memberId: string;
  let outsiderId: string;

  const failing = async (query: string, variables: Record<string, unknown>) => {
    const { json } = await graphql(app, TEST_ADMIN_TOKEN, query, variables);
    expect(json.data ?? null).toBeNull();
    expect(json.errors).toHaveLength(1);
    return json.errors?.[0] as {
      message: string;
      extensions: { code: string; details?: { path: string[]; message: string }[] };
    };
  };
  const keyCount = async () => (await db.database.db.query.apiKeys.findMany()).length;

  beforeAll(async () => {
    const member = await make.member();
    orgId = member.organizationId;
    memberId = member.user.id;
    outsiderId = (await make.user()).id;
  });

  const keyInput = (over: Record<string, unknown>) => ({
    input: {
      organizationId: orgId,
      userId: memberId,
      name: "k",
      scopes: ["tickets:read"],
      expiresIn: "NEVER",
      ...over,
    },
  });

  test("unknown scope → Validation failed naming it; no key is created", async () => {
    const before = await keyCount();
    const error = await failing(
      CREATE_KEY,
      keyInput({ scopes: ["tickets:read", "tickets:delete"] }),
    );
    expect(error.message).toBe("Validation failed");
    expect(error.extensions.details).toEqual([
      { path: ["input", "scopes", "1"], message: "Unknown scope: tickets:delete" },
    ]);
    expect(await keyCount()).toBe(before);
  });

  test("no scope, no name, both or neither expiration, a past expiresAt: all reported at once", async () => {
    const error = await failing(
      CREATE_KEY,
      keyInput({ scopes: [], name: "", expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    );
    const paths = error.extensions.details?.map((d) => d.path.join("."));
    expect(paths).toEqual(["input.name", "input.scopes", "input.expiresIn"]);
    const neither = await failing(CREATE_KEY, keyInput({ expiresIn: null }));
    expect(neither.extensions.details?.[0]?.message).toBe(
      "Give exactly one of expiresIn and expiresAt",
    );
    const past = await failing(
      CREATE_KEY,
      keyInput({ expiresIn: null, expiresAt: "2020-01-01T00:00:00Z" }),
    );
    expect(past.extensions.details).toEqual([
      { path: ["input", "expiresAt"], message: "Must be in the future" },
    ]);
  });

  test("a key for a user who is not a member, or an unknown organization, is refused", async () => {
    const before = await keyCount();
    const outsider = await failing(CREATE_KEY, keyInput({ userId: outsiderId }));
    expect(outsider.extensions.details?.[0]).toEqual({
      path: ["input", "userId"],
      message: "The user is not a member of this organization",
    });
    const unknownOrg = await failing(CREATE_KEY, keyInput({ organizationId: crypto.randomUUID() }));
    expect(unknownOrg).toMatchObject({
      message: "Organization not found",
      extensions: { code: "NOT_FOUND" },
    });
    const malformedOrg = await failing(CREATE_KEY, keyInput({ organizationId: "not-a-uuid" }));
    expect(malformedOrg.message).toBe("Organization not found");
    expect(await keyCount()).toBe(before);
  });

  test("bad email, blank names, duplicate email (409)", async () => {
    const bad = await failing(CREATE_USER, {
      input: { email: "nope", firstName: " ", lastName: "x" },
    });
    expect(bad.extensions.details?.map((d) => d.path.join("."))).toEqual([
      "input.email",
      "input.firstName",
    ]);
    await graphql(app, TEST_ADMIN_TOKEN, CREATE_USER, {
      input: { email: "dup@example.com", firstName: "A", lastName: "B" },
    });
    const dup = await failing(CREATE_USER, {
      input: { email: "DUP@example.com", firstName: "A", lastName: "B" },
    });
    expect(dup).toMatchObject({
      message: "A user with this email already exists",
      extensions: { code: "CONFLICT" },
    });
  });

  test("names of Object.prototype are not built-in roles: constructor, toString, __proto__", async () => {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const role = await failing(ADD_MEMBER, {
        input: { organizationId: orgId, userId: outsiderId, role: name },
      });
      expect(role.extensions.details, name).toEqual([
        { path: ["input", "role"], message: `Unknown role: ${name}` },
      ]);
    }
    const members = await db.database.db.query.memberships.findMany();
    expect(members.map((m) => m.role)).not.toContain("constructor");
  });

  test("an email over 254 characters, or crafted to make a regex backtrack, is refused", async () => {
    for (const email of [
      `a@${"a.".repeat(50_000)} `,
      `${"a".repeat(65)}@example.com`,
      `a@${"b".repeat(250)}.com`,
      "a@b..c",
    ]) {
      const bad = await failing(CREATE_USER, { input: { email, firstName: "A", lastName: "B" } });
      expect(bad.extensions.details?.[0]?.path, email.slice(0, 20)).toEqual(["input", "email"]);
    }
  });

  test("unknown role, built-in role name, unknown permission", async () => {
    const role = await failing(ADD_MEMBER, {
      input: { organizationId: orgId, userId: outsiderId, role: "wizard" },
    });
    expect(role.extensions.details).toEqual([
      { path: ["input", "role"], message: "Unknown role: wizard" },
    ]);
    const builtIn = await failing(CREATE_ROLE, {
      input: { organizationId: orgId, name: "admin", seat: "ADMIN", permissions: ["teleport"] },
    });
    expect(builtIn.extensions.details).toEqual([
      { path: ["input", "name"], message: '"admin" is a built-in role' },
      { path: ["input", "permissions", "0"], message: "Unknown permission: teleport" },
    ]);
  });

  test("bad CIDR and bad agent release fields", async () => {
    for (const cidr of ["10.0.0.0/33", "banana", "300.1.1.1"]) {
      const error = await failing(ADD_INGEST, { input: { organizationId: orgId, cidr } });
      expect(error.extensions.details?.[0]?.path).toEqual(["input", "cidr"]);
    }
    const release = await failing(CREATE_RELEASE, {
      input: {
        version: "1",
        platform: "beos",
        architecture: "x",
        channel: "s",
        downloadUrl: "ftp://x",
        sha256: "zz",
      },
    });
    expect(release.extensions.details?.map((d) => d.path[1])).toEqual([
      "platform",
      "downloadUrl",
      "sha256",
    ]);
  });

  test("revoking an unknown key → NOT_FOUND", async () => {
    const error = await failing(`mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, {
      id: crypto.randomUUID(),
    });
    expect(error).toMatchObject({
      message: "API key not found",
      extensions: { code: "NOT_FOUND" },
    });
  });

  test("GraphQL type errors in input are reported, not 500", async () => {
    const { json } = await graphql(app, TEST_ADMIN_TOKEN, CREATE_ROLE, {
      input: { organizationId: orgId, name: "x", seat: "OVERLORD", permissions: [] },
    });
    expect(json.errors?.[0]?.message).toContain("OVERLORD");
  });
}

describeEachDriver("operator API (error)", suite);
