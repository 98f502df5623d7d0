import { afterAll, beforeAll, expect, test } from "bun:test";
import type { OrgitApp } from "../../src/app.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { keyEvents, operator, ROTATE, SET_IPS, subscribeToKeyEvents } from "./ops.ts";

/**
 * Two instances on one database (docs/security.md): a rotation or an allowlist change made on
 * one is in force on the other at once, though the other had the key cached; the grace ends
 * at the same instant on both; each expiry warning is sent once however many sweep.
 */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });
  let other: OrgitApp;
  beforeAll(async () => {
    other = await buildTestApp(await db.openAnother(), { now: clock.now });
  });
  afterAll(() => other.stop());

  const whoami = (instance: OrgitApp, key: string, peer?: string) =>
    send(instance, "/api/v1/whoami", { key, peer });

  test("both secrets answer on both instances during the grace; after it only the new one", async () => {
    const member = await make.member();
    expect((await whoami(other, member.key)).status, "cached on the other instance").toBe(200);
    const { data } = await operator(app, ROTATE, { id: member.apiKey.id, grace: 300 });
    const fresh = data.rotateApiKey.secret as string;
    for (const instance of [app, other]) {
      expect((await whoami(instance, member.key)).status).toBe(200);
      expect((await whoami(instance, fresh)).status).toBe(200);
    }
    clock.advance(300_000);
    for (const instance of [app, other]) {
      const refused = await whoami(instance, member.key);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ error: "API key rotated" });
      expect((await whoami(instance, fresh)).status).toBe(200);
    }
  });

  test("a second rotation on one instance ends the first grace on the other at once", async () => {
    const member = await make.member();
    const first = (await operator(app, ROTATE, { id: member.apiKey.id })).data.rotateApiKey;
    expect((await whoami(other, member.key)).status, "in its grace, cached there").toBe(200);
    await operator(other, ROTATE, { id: first.apiKey.id });
    expect(await (await whoami(app, member.key)).json()).toEqual({ error: "API key rotated" });
    expect(await (await whoami(other, member.key)).json()).toEqual({ error: "API key rotated" });
  });

  test("two rotations of one key at once on two instances: one wins, the other is 409", async () => {
    const member = await make.member();
    const [a, b] = await Promise.all([
      operator(app, ROTATE, { id: member.apiKey.id }),
      operator(other, ROTATE, { id: member.apiKey.id }),
    ]);
    const outcomes = [a, b].map((r) => (r.error ? r.error.extensions.status : 200)).sort();
    expect(outcomes).toEqual([200, 409]);
    const keys = await db.database.db.query.apiKeys.findMany({
      where: (k, { eq }) => eq(k.userId, member.user.id),
    });
    expect(keys, "the old key and one new key").toHaveLength(2);
  });

  test("an allowlist set on one instance refuses other addresses on the other at once", async () => {
    const member = await make.member();
    expect((await whoami(other, member.key, "198.51.100.9")).status).toBe(200);
    await operator(app, SET_IPS, { id: member.apiKey.id, ips: ["203.0.113.0/24"] });
    expect((await whoami(other, member.key, "198.51.100.9")).status).toBe(403);
    expect((await whoami(other, member.key, "203.0.113.50")).status).toBe(200);
  });

  test("each expiry warning is sent once though both instances sweep at the same moments", async () => {
    const expiresAt = new Date(clock.now().getTime() + 31 * 86_400_000);
    const member = await make.member({ expiresAt });
    await subscribeToKeyEvents(app, make, member.organizationId);
    // the 30-, 7- and 1-day points, then the expiry, each reached while both sweep
    for (const days of [1, 23, 6, 1]) {
      clock.advance(days * 86_400_000);
      await Promise.all([
        app.services.expiryNotices.sweep(),
        other.services.expiryNotices.sweep(),
        app.services.expiryNotices.sweep(),
        other.services.expiryNotices.sweep(),
      ]);
    }
    const events = await keyEvents(db.database, member.organizationId);
    expect(events.map((e) => [e.type, e.data.daysLeft ?? null])).toEqual([
      ["api_key.expiring", 30],
      ["api_key.expiring", 7],
      ["api_key.expiring", 1],
      ["api_key.expired", null],
    ]);
  });
}

describeEachDriver("key security across two instances", suite);
