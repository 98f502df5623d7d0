import { expect, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { runCli } from "../../src/cli/commands.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import {
  type DriverName,
  describeEachDriver,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { keyRow } from "./ops.ts";

/** The operator's CLI for rotation, allowlists and the lifetime policy (docs/operator.md). */
async function cli(app: OrgitApp, argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, {
    fetch: (input, init) => app.handle(setPeerAddress(new Request(input, init), "127.0.0.1")),
    env: { ORGIT_URL: "http://localhost", ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      err += s;
    },
  });
  return { code, out, err };
}

function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("rotate-key prints the new secret once; the old one answers through its grace", async () => {
    const member = await make.member();
    const run = await cli(app, ["rotate-key", "--id", member.apiKey.id, "--grace", "600"]);
    expect(run.code, run.err).toBe(0);
    const secret = run.out.match(/^ {2}(orgit_[0-9A-Za-z]{40})$/m)?.[1];
    expect(run.out).toContain("API key rotated; the new key");
    expect((await send(app, "/api/v1/whoami", { key: secret })).status).toBe(200);
    expect((await send(app, "/api/v1/whoami", { key: member.key })).status).toBe(200);
    const old = await keyRow(db.database, member.apiKey.id);
    expect(
      old?.graceEndsAt && old.rotatedAt ? old.graceEndsAt.getTime() - old.rotatedAt.getTime() : 0,
    ).toBe(600_000);
  });

  test("rotate-key with a grace out of range fails naming the field; the key is unchanged", async () => {
    const member = await make.member();
    const run = await cli(app, ["rotate-key", "--id", member.apiKey.id, "--grace", "604801"]);
    expect(run.code).toBe(1);
    expect(run.err).toContain("gracePeriod");
    expect((await keyRow(db.database, member.apiKey.id))?.rotatedAt).toBeNull();
  });

  test("set-key-allowlist and set-key-lifetime, and create-key --allowed-ips", async () => {
    const member = await make.member();
    const ips = await cli(app, [
      "set-key-allowlist",
      "--id",
      member.apiKey.id,
      "--ips",
      "203.0.113.0/24,2001:db8::1",
      "--json",
    ]);
    expect(ips.code, ips.err).toBe(0);
    expect(JSON.parse(ips.out).setApiKeyAllowedIps.allowedIps).toEqual([
      "203.0.113.0/24",
      "2001:db8::1",
    ]);
    const none = await cli(app, [
      "set-key-allowlist",
      "--id",
      member.apiKey.id,
      "--ips",
      "none",
      "--json",
    ]);
    expect(JSON.parse(none.out).setApiKeyAllowedIps.allowedIps).toEqual([]);

    const policy = await cli(app, [
      "set-key-lifetime",
      "--org",
      member.organizationId,
      "--days",
      "30",
      "--json",
    ]);
    expect(policy.code, policy.err).toBe(0);
    expect(JSON.parse(policy.out).setKeyLifetimePolicy.maxKeyLifetimeDays).toBe(30);
    const below = await cli(app, [
      "set-key-lifetime",
      "--org",
      member.organizationId,
      "--days",
      "0",
    ]);
    expect(below.code).toBe(1);
    expect(below.err).toContain("maxKeyLifetimeDays");
    const refused = await cli(app, [
      "create-key",
      "--org",
      member.organizationId,
      "--user",
      member.user.id,
      "--name",
      "n",
      "--scopes",
      "tickets:read",
      "--expires-in",
      "DAYS_90",
    ]);
    expect(refused.code, "longer than the policy").toBe(1);
    expect(refused.err).toContain("Validation failed");
    const made = await cli(app, [
      "create-key",
      "--org",
      member.organizationId,
      "--user",
      member.user.id,
      "--name",
      "n",
      "--scopes",
      "tickets:read",
      "--expires-in",
      "DAYS_30",
      "--allowed-ips",
      "198.51.100.0/24",
      "--json",
    ]);
    expect(made.code, made.err).toBe(0);
    const secret = JSON.parse(made.out).createApiKey.secret as string;
    expect((await send(app, "/api/v1/whoami", { key: secret, peer: "198.51.100.4" })).status).toBe(
      200,
    );
    expect((await send(app, "/api/v1/whoami", { key: secret, peer: "203.0.113.4" })).status).toBe(
      403,
    );
    const lifted = await cli(app, [
      "set-key-lifetime",
      "--org",
      member.organizationId,
      "--days",
      "none",
      "--json",
    ]);
    expect(JSON.parse(lifted.out).setKeyLifetimePolicy.maxKeyLifetimeDays).toBeNull();
  });
}

describeEachDriver("CLI: key rotation, allowlists and lifetime policy", suite);
