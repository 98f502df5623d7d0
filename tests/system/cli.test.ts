import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { type FetchLike, runCli } from "../../src/cli/commands.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  freshDatabase,
  send,
  TEST_ADMIN_TOKEN,
} from "../helpers/harness.ts";

/** Runs the CLI with its HTTP calls routed into `app`, as if it were listening on localhost. */
async function cli(app: OrgitApp | undefined, argv: string[], fetchOverride?: FetchLike) {
  let out = "";
  let err = "";
  let requests = 0;
  const inProcess: FetchLike = (input, init) => {
    requests++;
    if (!app) throw new Error("no app");
    return app.handle(setPeerAddress(new Request(input, init), "127.0.0.1"));
  };
  const code = await runCli(argv, {
    fetch: fetchOverride ?? inProcess,
    env: { ORGIT_URL: "http://localhost", ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
  });
  return { code, out, err, requests };
}

/** The `  field: value` line of the text output. */
const field = (out: string, name: string) => out.match(new RegExp(`^  ${name}: (.*)$`, "m"))?.[1];

function suite(driver: DriverName) {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let app: OrgitApp;
  const query = () => db.database.db.query;

  beforeAll(async () => {
    db = await freshDatabase(driver);
    app = await buildTestApp(db.database);
  });
  afterAll(async () => {
    await app.stop();
    await db.drop();
  });

  /** An organization with one technician member, made through the CLI itself. */
  async function orgWithMember() {
    const org = await cli(app, ["create-org", "--name", "Acme", "--daily-quota", "500", "--json"]);
    expect(org.code, org.err).toBe(0);
    const organization = JSON.parse(org.out).createOrganization;
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const user = await cli(app, [
      ...["create-user", "--email", email, "--first-name", "Ada", "--last-name", "Lovelace"],
    ]);
    expect(user.code, user.err).toBe(0);
    expect(user.out).toStartWith("user created\n");
    const userId = field(user.out, "id") as string;
    const member = await cli(app, [
      ...["add-member", "--org", organization.id, "--user", userId, "--role", "technician"],
    ]);
    expect(member.code, member.err).toBe(0);
    return { organization, userId };
  }

  test("create-org → create-user → add-member → create-key gives a secret that works", async () => {
    const { organization, userId } = await orgWithMember();
    expect(organization).toMatchObject({ name: "Acme", plan: "PRO", dailyQuota: 500 });
    const row = await query().organizations.findFirst({
      where: (o, { eq }) => eq(o.id, organization.id),
    });
    expect(row, "organization row stored").toMatchObject({ name: "Acme", dailyQuota: 500 });
    const membership = await query().memberships.findFirst({
      where: (m, { eq }) => eq(m.userId, userId),
    });
    expect(membership?.role).toBe("technician");

    const key = await cli(app, [
      ...["create-key", "--org", organization.id, "--user", userId, "--name", "ci"],
      ...["--scopes", "equipment:read, tickets:read", "--expires-in", "DAYS_30"],
    ]);
    expect(key.code, key.err).toBe(0);
    expect(key.out).toContain("shown once");
    const secret = key.out.match(/^ {2}(orgit_\S+)$/m)?.[1] as string;
    expect(secret, `a secret line in:\n${key.out}`).toBeString();
    const keyId = field(key.out, "id") as string;
    const stored = await query().apiKeys.findFirst({ where: (k, { eq }) => eq(k.id, keyId) });
    expect(stored?.scopes).toEqual(["equipment:read", "tickets:read"]);
    expect(stored?.keyHash, "only a hash of the secret is stored").not.toContain(secret);

    const whoami = await send(app, "/api/v1/whoami", { key: secret });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({
      organization: { id: organization.id, name: "Acme" },
      user: { id: userId, role: "technician" },
      apiKey: { name: "ci", scopes: ["equipment:read", "tickets:read"] },
    });

    const revoked = await cli(app, ["revoke-key", "--id", keyId]);
    expect(revoked.code, revoked.err).toBe(0);
    expect(revoked.out).toStartWith("API key revoked\n");
    const after = await send(app, "/api/v1/whoami", { key: secret });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ error: "API key revoked" });
  });

  test("update-org, create-role, add-ingest-source, create-agent-release and remove-member", async () => {
    const { organization, userId } = await orgWithMember();
    const org = organization.id as string;
    const updated = await cli(app, [
      ...["update-org", "--id", org, "--plan", "ENTERPRISE", "--daily-quota", "default"],
      ...["--unlimited", "true"],
    ]);
    expect(updated.code, updated.err).toBe(0);
    expect(field(updated.out, "dailyQuota")).toBe("plan default");
    const row = await query().organizations.findFirst({ where: (o, { eq }) => eq(o.id, org) });
    expect(row).toMatchObject({ plan: "ENTERPRISE", dailyQuota: null, unlimitedQuota: true });

    const role = await cli(app, [
      ...["create-role", "--org", org, "--name", "night-shift", "--seat", "TECHNICIAN"],
      ...["--permissions", "tickets.view_all,alerts.view"],
    ]);
    expect(role.code, role.err).toBe(0);
    expect(field(role.out, "permissions")).toBe("tickets.view_all,alerts.view");

    const source = await cli(app, ["add-ingest-source", "--org", org, "--cidr", "10.1.2.3/8"]);
    expect(source.code, source.err).toBe(0);
    expect(field(source.out, "cidr")).toBe("10.0.0.0/8");

    const release = await cli(app, [
      ...["create-agent-release", "--version", "1.2.3", "--platform", "linux"],
      ...["--architecture", "x64", "--channel", "stable", "--download-url"],
      ...["https://example.com/agent", "--sha256", "a".repeat(64), "--json"],
    ]);
    expect(release.code, release.err).toBe(0);
    expect(JSON.parse(release.out).createAgentRelease).toMatchObject({ version: "1.2.3" });

    const removed = await cli(app, ["remove-member", "--org", org, "--user", userId]);
    expect(removed.out.trim()).toBe("member removed");
    const again = await cli(app, ["remove-member", "--org", org, "--user", userId]);
    expect(again.out.trim()).toBe("nothing to do: not a member");
  });

  test("--get prints one field alone, so a script can capture ids and the secret", async () => {
    const org = await cli(app, [
      "create-org",
      "--name",
      "Scripted",
      "--plan",
      "PRO",
      "--get",
      "id",
    ]);
    expect(org.code, org.err).toBe(0);
    const orgId = org.out.trim();
    expect(org.out, "the id alone on one line").toMatch(/^[0-9a-f-]{36}\n$/);
    const user = await cli(app, [
      ...["create-user", "--email", "scripted@example.com", "--first-name", "Scripted"],
      ...["--last-name", "User", "--get", "id"],
    ]);
    const userId = user.out.trim();
    await cli(app, ["add-member", "--org", orgId, "--user", userId, "--role", "technician"]);
    const key = await cli(app, [
      ...["create-key", "--org", orgId, "--user", userId, "--name", "scripted"],
      ...["--scopes", "tickets:read", "--get", "secret"],
    ]);
    expect(key.code, key.err).toBe(0);
    const whoami = await send(app, "/api/v1/whoami", { key: key.out.trim() });
    expect(whoami.status, "the captured secret works").toBe(200);
    const nested = await cli(app, ["list-orgs", "--get", "nope.deeper"]);
    expect(nested.code).toBe(1);
    expect(nested.err).toContain("error: the answer has no field nope.deeper (fields here: ");
  });

  test("a wrong operator token exits 1 naming the operator token and changes nothing", async () => {
    const before = (await query().organizations.findMany()).length;
    const result = await cli(app, ["create-org", "--name", "Nope", "--token", "wrong-token"]);
    expect(result.code).toBe(1);
    expect(result.err.trim()).toBe(
      "error: the service refused the operator token (it answered 401 Invalid API key): " +
        "--token or ADMIN_TOKEN must equal the ADMIN_TOKEN the service was started with " +
        "(`npm run demo` prints it; a service started without ADMIN_TOKEN has operator access " +
        "off and refuses every token: restart it with ADMIN_TOKEN set)",
    );
    expect(await query().organizations.findMany()).toHaveLength(before);
  });

  test("create-key without an expiry makes a key that expires in 90 days, as the settings page does", async () => {
    const { organization, userId } = await orgWithMember();
    const result = await cli(app, [
      ...["create-key", "--org", organization.id, "--user", userId, "--name", "defaulted"],
      ...["--scopes", "tickets:read"],
    ]);
    expect(result.code, result.err).toBe(0);
    const stored = await query().apiKeys.findFirst({
      where: (k, { eq }) => eq(k.name, "defaulted"),
    });
    const days = ((stored?.expiresAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days, "about 90 days from now").toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);
  });

  test("an unknown scope exits 1 and names the field problem", async () => {
    const { organization, userId } = await orgWithMember();
    const result = await cli(app, [
      ...["create-key", "--org", organization.id, "--user", userId, "--name", "bad"],
      ...["--scopes", "equipment:read,nope:nope"],
    ]);
    expect(result.code).toBe(1);
    expect(result.err).toContain("error: Validation failed");
    expect(result.err).toContain("input.scopes.1: Unknown scope: nope:nope");
    expect(await query().apiKeys.findMany({ where: (k, { eq }) => eq(k.name, "bad") })).toEqual([]);
  });

  test("a missing flag exits 2 with usage, before any request", async () => {
    const result = await cli(app, ["create-key", "--org", "x", "--user", "y"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("error: missing --name, --scopes");
    expect(result.err).toContain("usage: npx orgit create-key");
    expect(result.requests, "no request for bad usage").toBe(0);
  });
}

describeEachDriver("operator CLI", suite);

describe("operator CLI without a service", () => {
  test("unknown commands and flags exit 2 with usage", async () => {
    const unknown = await cli(undefined, ["make-coffee"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command: make-coffee");
    expect(unknown.err).toContain("create-agent-release");
    const flag = await cli(undefined, ["revoke-key", "--id", "x", "--force"]);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("--force");
  });

  test("help lists every command on stdout and exits 0", async () => {
    const help = await cli(undefined, ["help"]);
    expect(help.code).toBe(0);
    for (const name of ["create-org", "update-org", "create-key", "revoke-key", "add-member"])
      expect(help.out).toContain(`  ${name} `);
  });

  test("connection refused exits 1 naming the URL", async () => {
    const result = await cli(
      undefined,
      ["revoke-key", "--id", "x", "--url", "http://127.0.0.1:1"],
      fetch,
    );
    expect(result.code).toBe(1);
    expect(result.err).toContain("cannot reach the orgit service at http://127.0.0.1:1/graphql");
  });
});

/**
 * The `orgit` bin of package.json, as `npx orgit …` runs it: started by Node, it runs the CLI
 * with the Bun from node_modules (no global Bun), against the service over real HTTP.
 */
describe("the orgit bin (npx orgit)", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let app: OrgitApp;
  let server: ReturnType<typeof Bun.serve>;
  const bin = new URL("../../bin/orgit.mjs", import.meta.url).pathname;
  const node = Bun.which("node");

  beforeAll(async () => {
    db = await freshDatabase("pglite");
    app = await buildTestApp(db.database);
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
    });
  });
  afterAll(async () => {
    await server.stop(true);
    await app.stop();
    await db.drop();
  });

  // asynchronous: the service answering it runs in this very process
  const run = async (args: string[], token: string) => {
    const child = Bun.spawn([node ?? "node", bin, ...args], {
      // a PATH without the Bun running this test: the bin must find the project's own
      env: {
        PATH: "/usr/local/bin:/usr/bin:/bin",
        ORGIT_URL: `http://127.0.0.1:${server.port}`,
        ADMIN_TOKEN: token,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, out, err };
  };

  test.skipIf(!node)(
    "creates an organization with the operator token",
    async () => {
      const result = await run(["create-org", "--name", "ViaBin", "--json"], TEST_ADMIN_TOKEN);
      expect(result.code, result.err).toBe(0);
      expect(JSON.parse(result.out).createOrganization).toMatchObject({ name: "ViaBin" });
    },
    30_000,
  );

  test.skipIf(!node)(
    "a wrong token exits 1 with a message naming the operator token",
    async () => {
      const result = await run(["create-org", "--name", "Nope"], "wrong-operator-token");
      expect(result.code).toBe(1);
      expect(result.err).toContain("the service refused the operator token");
      expect(result.err).toContain("ADMIN_TOKEN");
      const orgs = await db.database.db.query.organizations.findMany();
      expect(orgs.map((o) => o.name)).not.toContain("Nope");
    },
    30_000,
  );
});
