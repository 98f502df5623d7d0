import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";
import { keyEvents, operator, ROTATE, subscribeToKeyEvents } from "./ops.ts";

const DAY = 86_400_000;

/** Expiry warnings (docs/webhooks.md, api_key.expiring and api_key.expired), on an injected clock. */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });
  const sweep = () => app.services.expiryNotices.sweep();

  async function keyExpiringIn(days: number) {
    const member = await make.member({ expiresAt: new Date(clock.now().getTime() + days * DAY) });
    await subscribeToKeyEvents(app, make, member.organizationId);
    return member;
  }
  const sent = async (organizationId: string) =>
    (await keyEvents(db.database, organizationId)).map((e) => [e.type, e.data.daysLeft ?? null]);

  test("warnings at 30, 7 and 1 days and the expiry, each once, with the key and no secret", async () => {
    const member = await keyExpiringIn(40);
    await sweep();
    expect(await sent(member.organizationId), "nothing due yet").toEqual([]);
    clock.advance(10 * DAY);
    await sweep();
    await sweep();
    expect(await sent(member.organizationId)).toEqual([["api_key.expiring", 30]]);
    clock.advance(23 * DAY);
    await sweep();
    clock.advance(6 * DAY);
    await sweep();
    clock.advance(DAY - 1);
    await sweep();
    expect(await sent(member.organizationId), "a millisecond before expiry").toHaveLength(3);
    clock.advance(1);
    await sweep();
    await sweep();
    const events = await keyEvents(db.database, member.organizationId);
    expect(events.map((e) => [e.type, e.data.daysLeft ?? null])).toEqual([
      ["api_key.expiring", 30],
      ["api_key.expiring", 7],
      ["api_key.expiring", 1],
      ["api_key.expired", null],
    ]);
    expect(events[3]?.data.apiKey).toEqual({
      id: member.apiKey.id,
      name: "test key",
      prefix: member.apiKey.prefix,
      userId: member.user.id,
      scopes: ["equipment:read"],
      expiresAt: member.apiKey.expiresAt?.toISOString(),
    });
    expect(JSON.stringify(events)).not.toContain(member.key);
  });

  test("a sweep after the expiry sends only api_key.expired: overtaken warnings are not sent late", async () => {
    const member = await keyExpiringIn(10);
    clock.advance(11 * DAY);
    await sweep();
    // the sweep ran late: the 7- and 1-day warnings were overtaken by the expiry, not sent late
    expect(await sent(member.organizationId)).toEqual([["api_key.expired", null]]);
  });

  test("a key made with 10 days left is warned at 7 and 1 days only, each when reached", async () => {
    const member = await keyExpiringIn(10);
    clock.advance(3 * DAY + 3_600_000); // 7 days minus an hour left
    await sweep();
    clock.advance(6 * DAY); // 23 hours left
    await sweep();
    expect(await sent(member.organizationId)).toEqual([
      ["api_key.expiring", 7],
      ["api_key.expiring", 1],
    ]);
  });

  test("a key that never expires, a revoked key and an old secret after rotation are not warned", async () => {
    const never = await make.member();
    await subscribeToKeyEvents(app, make, never.organizationId);
    const revoked = await keyExpiringIn(5);
    await app.services.apiKeys.revokeApiKey(revoked.apiKey.id);
    const rotated = await keyExpiringIn(5);
    const { data } = await operator(app, ROTATE, { id: rotated.apiKey.id, grace: 60 });
    clock.advance(6 * DAY);
    await sweep();
    expect(await sent(never.organizationId)).toEqual([]);
    expect(await sent(revoked.organizationId)).toEqual([]);
    const events = await keyEvents(db.database, rotated.organizationId);
    expect(
      events.map((e) => [e.type, (e.data.apiKey as { id: string }).id]),
      "the new key (same expiry) is warned once, the old secret not at all",
    ).toEqual([
      ["api_key.rotated", data.rotateApiKey.apiKey.id],
      ["api_key.expired", data.rotateApiKey.apiKey.id],
    ]);
  });

  test("a running instance sends due warnings as its job, without being asked", async () => {
    const member = await keyExpiringIn(3);
    clock.advance(2 * DAY + 1);
    // its first sweep runs as it starts
    const running = await buildTestApp(await db.openAnother(), {
      now: clock.now,
      backgroundJobs: true,
    });
    try {
      await eventually(
        async () => (await sent(member.organizationId)).length === 1,
        "the 1-day warning, sent by the job",
      );
      expect(await sent(member.organizationId)).toEqual([["api_key.expiring", 1]]);
    } finally {
      await running.stop();
    }
  });

  test("whoami keeps its shape for a key about to expire", async () => {
    const member = await keyExpiringIn(2);
    const response = await send(app, "/api/v1/whoami", { key: member.key });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      Object.keys(
        (await (
          await send(app, "/api/v1/whoami", { key: (await make.member()).key })
        ).json()) as object,
      ).sort(),
    );
  });
}

describeEachDriver("API key expiry warnings", suite);
