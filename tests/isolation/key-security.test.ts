import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiKeys, organizations } from "../../src/db/schema/index.ts";
import { ApiError } from "../../src/errors.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { keyEvents, subscribeToKeyEvents } from "../key-security/ops.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

const DAY = 86_400_000;

/**
 * Rotation, allowlists, the lifetime policy and expiry warnings across two organizations
 * (docs/security.md): what B does to its keys never touches A's, and A's key is "not found"
 * to B's ADMIN.
 */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });
  const service = () => app.services.keySecurity;

  test("key security: B rotates, restricts and sets its policy; A's keys, grace and policy stay as they were; A's key is not found to B's ADMIN", async () => {
    const { a, b } = await twoOrganizations(make);
    const adminB = { member: { userId: b.user.id } };
    const first = await service().rotate({ operator: true }, a.apiKey.id, 3600);
    await expectUntouched(app, a.organizationId, async () => {
      const rotated = await service().rotate(adminB, b.apiKey.id, 3600);
      await service().setAllowedIps(adminB, rotated.apiKey.id, ["203.0.113.0/24"]);
      // B's old secret in its grace: its use is recorded on B's old key only
      expect((await send(app, "/api/v1/whoami", { key: b.key, peer: "198.51.100.2" })).status).toBe(
        200,
      );
      // a second rotation ends the grace of B's first secret only
      await service().rotate(adminB, rotated.apiKey.id, 60);
      await service().setKeyLifetimePolicy(adminB, b.organizationId, 365);
      for (const attempt of [
        () => service().rotate(adminB, first.apiKey.id, 0),
        () => service().setAllowedIps(adminB, first.apiKey.id, ["10.0.0.1"]),
        () => service().setKeyLifetimePolicy(adminB, a.organizationId, 1),
      ]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(404);
      }
    });
    expect(
      (await send(app, "/api/v1/whoami", { key: a.key })).status,
      "A's old secret, in its grace",
    ).toBe(200);
    expect((await send(app, "/api/v1/whoami", { key: first.secret })).status).toBe(200);
    const [orgA] = await db.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, a.organizationId));
    expect(orgA?.maxKeyLifetimeDays).toBeNull();
    const [oldB] = await db.database.db.select().from(apiKeys).where(eq(apiKeys.id, b.apiKey.id));
    expect(oldB?.graceUsedIp).toBe("198.51.100.2");
  });

  test("key security: expiry warnings of B's key go to B's outbox only, and leave A's schedule unsent", async () => {
    const a = await make.member({ expiresAt: new Date(clock.now().getTime() + 20 * DAY) });
    const b = await make.member({ expiresAt: new Date(clock.now().getTime() + 5 * DAY) });
    await subscribeToKeyEvents(app, make, a.organizationId);
    await subscribeToKeyEvents(app, make, b.organizationId);
    clock.advance(6 * DAY);
    await expectUntouched(app, a.organizationId, () => app.services.expiryNotices.sweep());
    const idsIn = async (organizationId: string) =>
      (await keyEvents(db.database, organizationId)).map((e) => [
        e.type,
        (e.data.apiKey as { id: string }).id,
      ]);
    expect(await idsIn(b.organizationId)).toEqual([["api_key.expired", b.apiKey.id]]);
    clock.advance(8 * DAY); // 6 days left on A's key
    await expectUntouched(app, b.organizationId, () => app.services.expiryNotices.sweep());
    expect(await idsIn(a.organizationId)).toEqual([["api_key.expiring", a.apiKey.id]]);
    expect(await idsIn(b.organizationId)).toHaveLength(1);
  });
}

describeEachDriver("isolation of key security", suite);
