import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import {
  keyEvents,
  keyRow,
  ORG_KEYS,
  operator,
  ROTATE,
  SET_IPS,
  subscribeToKeyEvents,
} from "./ops.ts";

/** Rotation with a grace period (docs/security.md, "Rotating a key"). */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });
  const whoami = (key: string, peer?: string) => send(app, "/api/v1/whoami", { key, peer });

  test("the new key keeps name, scopes, owner, allowlist and expiry; the secret is new", async () => {
    const member = await make.member({
      scopes: ["tickets:read", "equipment:read"],
      expiresIn: "DAYS_90",
    });
    await operator(app, SET_IPS, { id: member.apiKey.id, ips: ["127.0.0.0/8", "2001:db8::/32"] });
    const { data, error } = await operator(app, ROTATE, { id: member.apiKey.id });
    expect(error).toBeUndefined();
    const rotated = data.rotateApiKey;
    expect(rotated.secret).toMatch(/^orgit_[0-9A-Za-z]{40}$/);
    expect(rotated.secret).not.toBe(member.key);
    expect(rotated.apiKey.id).not.toBe(member.apiKey.id);
    expect(rotated.apiKey).toMatchObject({
      name: "test key",
      scopes: ["tickets:read", "equipment:read"],
      userId: member.user.id,
      expiresAt: member.apiKey.expiresAt?.toISOString(),
      allowedIps: ["127.0.0.0/8", "2001:db8::/32"],
      status: "ACTIVE",
    });
    const stored = await keyRow(db.database, rotated.apiKey.id);
    expect(stored?.keyHash, "only a hash of the new secret is stored").not.toContain(
      rotated.secret,
    );
    expect((await whoami(rotated.secret)).status, "the new secret works at once").toBe(200);
  });

  test("the old secret answers until the grace ends, then 401 API key rotated", async () => {
    const member = await make.member();
    expect((await whoami(member.key)).status, "cached before the rotation").toBe(200);
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id, grace: 3600 });
    const fresh = data.rotateApiKey.secret as string;
    clock.advance(3_599_000);
    expect((await whoami(member.key)).status, "one second before the end of the grace").toBe(200);
    expect((await whoami(fresh)).status).toBe(200);
    clock.advance(1_000);
    const refused = await whoami(member.key);
    expect(refused.status, "at the end of the grace").toBe(401);
    expect(await refused.json()).toEqual({ error: "API key rotated" });
    expect((await whoami(fresh)).status, "the new secret is unaffected").toBe(200);
  });

  test("the default grace is one day; a grace of 0 refuses the old secret at once", async () => {
    const a = await make.member();
    await operator(app, ROTATE, { id: a.apiKey.id });
    const row = await keyRow(db.database, a.apiKey.id);
    expect(row?.graceEndsAt?.getTime()).toBe(clock.now().getTime() + 86_400_000);
    const b = await make.member();
    await operator(app, ROTATE, { id: b.apiKey.id, grace: 0 });
    expect(await (await whoami(b.key)).json()).toEqual({ error: "API key rotated" });
  });

  test("the grace never outlives the old key's own expiry", async () => {
    const member = await make.member({ expiresAt: new Date(clock.now().getTime() + 600_000) });
    await operator(app, ROTATE, { id: member.apiKey.id, grace: 604_800 });
    const row = await keyRow(db.database, member.apiKey.id);
    expect(row?.graceEndsAt?.toISOString()).toBe(member.apiKey.expiresAt?.toISOString());
    clock.advance(600_000);
    expect(await (await whoami(member.key)).json()).toEqual({ error: "API key rotated" });
  });

  test("rotating again during a grace ends the earlier grace at once", async () => {
    const member = await make.member();
    const first = (await operator(app, ROTATE, { id: member.apiKey.id, grace: 86_400 })).data
      .rotateApiKey;
    expect((await whoami(member.key)).status, "first secret in its grace").toBe(200);
    const second = (await operator(app, ROTATE, { id: first.apiKey.id, grace: 86_400 })).data
      .rotateApiKey;
    const refused = await whoami(member.key);
    expect(refused.status, "the first secret stops at the second rotation").toBe(401);
    expect(await refused.json()).toEqual({ error: "API key rotated" });
    expect((await whoami(first.secret)).status, "the second secret is in its grace").toBe(200);
    expect((await whoami(second.secret)).status).toBe(200);
  });

  test("an old secret cannot be rotated twice; a revoked key cannot be rotated", async () => {
    const member = await make.member();
    await operator(app, ROTATE, { id: member.apiKey.id });
    const again = await operator(app, ROTATE, { id: member.apiKey.id });
    expect(again.error?.extensions.status).toBe(409);
    expect(again.error?.message).toBe("API key already rotated");
    const other = await make.member();
    await app.services.apiKeys.revokeApiKey(other.apiKey.id);
    const revoked = await operator(app, ROTATE, { id: other.apiKey.id });
    expect(revoked.error?.extensions.status).toBe(409);
    expect(revoked.error?.message).toBe("API key revoked");
  });

  test("revoking the new key also ends the old secret's grace", async () => {
    const member = await make.member();
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id });
    await app.services.apiKeys.revokeApiKey(data.rotateApiKey.apiKey.id);
    expect(await (await whoami(member.key)).json()).toEqual({ error: "API key rotated" });
    expect(await (await whoami(data.rotateApiKey.secret)).json()).toEqual({
      error: "API key revoked",
    });
  });

  test("use of the old secret during its grace is recorded with the client address", async () => {
    const member = await make.member();
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id });
    clock.advance(60_000);
    await whoami(member.key, "203.0.113.7");
    await whoami(data.rotateApiKey.secret, "198.51.100.1");
    await app.services.keys.flushLastUsed();
    const keys = (await operator(app, ORG_KEYS, { id: member.organizationId })).data.organization
      .apiKeys as { id: string; status: string; graceUsedAt: string; graceUsedIp: string }[];
    const old = keys.find((k) => k.id === member.apiKey.id);
    expect(old).toMatchObject({
      status: "ROTATED",
      graceUsedAt: clock.now().toISOString(),
      graceUsedIp: "203.0.113.7",
    });
    const current = keys.find((k) => k.id === data.rotateApiKey.apiKey.id);
    expect(current, "the new key's use is not a grace use").toMatchObject({
      status: "ACTIVE",
      graceUsedAt: null,
      graceUsedIp: null,
    });
  });

  test("a rotation sends api_key.rotated with the new key and the old one's grace, no secret", async () => {
    const member = await make.member();
    await subscribeToKeyEvents(app, make, member.organizationId);
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id, grace: 600 });
    const events = await keyEvents(db.database, member.organizationId);
    expect(events.map((e) => e.type)).toEqual(["api_key.rotated"]);
    expect(events[0]?.data).toEqual({
      apiKey: {
        id: data.rotateApiKey.apiKey.id,
        name: "test key",
        prefix: data.rotateApiKey.apiKey.prefix,
        userId: member.user.id,
        scopes: ["equipment:read"],
        expiresAt: null,
      },
      previousKey: {
        id: member.apiKey.id,
        prefix: member.apiKey.prefix,
        graceEndsAt: new Date(clock.now().getTime() + 600_000).toISOString(),
      },
    });
    expect(JSON.stringify(events)).not.toContain(data.rotateApiKey.secret);
  });
}

describeEachDriver("rotating an API key", suite);
