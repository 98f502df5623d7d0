import { expect, test } from "bun:test";
import { ApiError } from "../../src/errors.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { keyRow, ROTATE, SET_IPS, SET_POLICY } from "./ops.ts";

/**
 * Who may rotate, restrict and set the policy (docs/security.md): the operator; a member signed
 * in to the settings screen on their own keys, or on any key of an organization where their
 * seat is ADMIN; never an API key. Another organization's key is "not found".
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);
  const service = () => app.services.keySecurity;

  async function failure(promise: Promise<unknown>) {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).status, message: (error as ApiError).message };
  }

  test("an API key cannot rotate, restrict or set the policy over /graphql, not even its own", async () => {
    const member = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    for (const [query, variables] of [
      [ROTATE, { id: member.apiKey.id }],
      [SET_IPS, { id: member.apiKey.id, ips: ["203.0.113.1"] }],
      [SET_POLICY, { org: member.organizationId, days: 1 }],
    ] as const) {
      const { json } = await graphql(app, member.key, query, variables);
      expect(json.errors?.[0]?.extensions.status, query).toBe(403);
    }
    const row = await keyRow(db.database, member.apiKey.id);
    expect(row?.rotatedAt).toBeNull();
    expect(row?.allowedIps).toEqual([]);
    expect((await send(app, "/api/v1/whoami", { key: member.key })).status).toBe(200);
  });

  test("without a credential: 401 and nothing changes", async () => {
    const member = await make.member();
    const { response } = await graphql(app, undefined, ROTATE, { id: member.apiKey.id });
    expect(response.status).toBe(401);
    expect((await keyRow(db.database, member.apiKey.id))?.rotatedAt).toBeNull();
  });

  test("a technician rotates and restricts their own key, not a colleague's (404, unchanged)", async () => {
    const mine = await make.member({ role: "technician" });
    const colleague = await make.member({
      organizationId: mine.organizationId,
      role: "technician",
    });
    const me = { member: { userId: mine.user.id } };
    const rotated = await service().rotate(me, mine.apiKey.id, 60);
    expect(rotated.apiKey.userId).toBe(mine.user.id);
    await service().setAllowedIps(me, rotated.apiKey.id, ["203.0.113.0/24"]);
    expect(await failure(service().rotate(me, colleague.apiKey.id, 60))).toEqual({
      status: 404,
      message: "API key not found",
    });
    expect(await failure(service().setAllowedIps(me, colleague.apiKey.id, []))).toEqual({
      status: 404,
      message: "API key not found",
    });
    expect((await keyRow(db.database, colleague.apiKey.id))?.rotatedAt).toBeNull();
    expect(await failure(service().setKeyLifetimePolicy(me, mine.organizationId, 30))).toEqual({
      status: 403,
      message: "Only an administrator seat may set the policy",
    });
  });

  test("an ADMIN seat rotates a colleague's key (the owner stays the colleague) and sets the policy", async () => {
    const admin = await make.member({ role: "admin" });
    const colleague = await make.member({
      organizationId: admin.organizationId,
      role: "technician",
    });
    const actor = { member: { userId: admin.user.id } };
    const rotated = await service().rotate(actor, colleague.apiKey.id, 0);
    expect(rotated.apiKey.userId).toBe(colleague.user.id);
    expect(await service().setKeyLifetimePolicy(actor, admin.organizationId, 30)).toEqual({
      organizationId: admin.organizationId,
      maxKeyLifetimeDays: 30,
    });
  });

  test("an ADMIN of another organization cannot touch this one's keys or policy", async () => {
    const victim = await make.member();
    const stranger = await make.member({ role: "admin" });
    const actor = { member: { userId: stranger.user.id } };
    expect((await failure(service().rotate(actor, victim.apiKey.id, 0))).status).toBe(404);
    expect((await failure(service().setAllowedIps(actor, victim.apiKey.id, []))).status).toBe(404);
    expect(
      (await failure(service().setKeyLifetimePolicy(actor, victim.organizationId, 1))).status,
    ).toBe(404);
    expect((await send(app, "/api/v1/whoami", { key: victim.key })).status).toBe(200);
  });
}

describeEachDriver("key security: who may", suite);
