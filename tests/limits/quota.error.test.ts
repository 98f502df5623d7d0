import { expect, test } from "bun:test";
import { eq, sql as sqlText } from "drizzle-orm";
import { quotaUsage } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

const QUOTA_EXCEEDED = { error: "API quota exceeded", limit: 3, used: 3, window: "24h" };

function suite(driver: DriverName) {
  const clock = manualClock();
  const logs: Record<string, unknown>[] = [];
  const { app, db, make } = useTestApp(driver, { now: clock.now, logs });

  async function memberWithQuota(dailyQuota: number) {
    const member = await make.member();
    await app.services.operator.updateOrganization(member.organizationId, { dailyQuota });
    return member;
  }

  test("over the daily quota → 429 API quota exceeded with limit, used, window and Retry-After 3600", async () => {
    const { key } = await memberWithQuota(3);
    for (let i = 0; i < 3; i++)
      expect((await send(app, "/api/v1/whoami", { key })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const refused = await send(app, "/api/v1/whoami", { key });
      expect(refused.status).toBe(429);
      expect(await refused.json(), "refusals are not counted").toEqual(QUOTA_EXCEEDED);
      expect(refused.headers.get("retry-after")).toBe("3600");
      expect(refused.headers.get("x-quota-limit")).toBe("3");
      expect(refused.headers.get("x-quota-used")).toBe("3");
      expect(refused.headers.get("x-quota-remaining")).toBe("0");
      expect(refused.headers.get("x-ratelimit-limit"), "limit headers on a 429 too").not.toBeNull();
    }
  });

  test("GET /health reports the quota without consuming it, and 429s once it is spent", async () => {
    const { key } = await memberWithQuota(3);
    await send(app, "/api/v1/whoami", { key });
    await send(app, "/api/v1/whoami", { key });
    for (let i = 0; i < 3; i++) {
      const health = await send(app, "/api/v1/health", { key });
      expect(health.status).toBe(200);
      expect(health.headers.get("x-quota-used"), "health does not count").toBe("2");
    }
    expect((await send(app, "/api/v1/whoami", { key })).headers.get("x-quota-used")).toBe("3");
    const health = await send(app, "/api/v1/health", { key });
    expect(health.status).toBe(429);
    expect(await health.json()).toEqual(QUOTA_EXCEEDED);
    expect(health.headers.get("retry-after")).toBe("3600");
  });

  test("a quota of 0 refuses the first request; raising it lets the next one through", async () => {
    const { key, organizationId } = await memberWithQuota(0);
    const refused = await send(app, "/api/v1/whoami", { key });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ ...QUOTA_EXCEEDED, limit: 0, used: 0 });
    await app.services.operator.updateOrganization(organizationId, { dailyQuota: 10 });
    const allowed = await send(app, "/api/v1/whoami", { key });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("x-quota-remaining")).toBe("9");
  });

  test("a spent quota frees up as its oldest minute leaves the 24 h window", async () => {
    const { key } = await memberWithQuota(3);
    for (let i = 0; i < 3; i++) await send(app, "/api/v1/whoami", { key });
    await app.services.limits.quota.sync();
    clock.advance(23 * 3_600_000);
    expect((await send(app, "/api/v1/whoami", { key })).status).toBe(429);
    clock.advance(3_600_000);
    await app.services.limits.quota.sync();
    const back = await send(app, "/api/v1/whoami", { key });
    expect(back.status).toBe(200);
    expect(back.headers.get("x-quota-used")).toBe("1");
  });

  test("while the database refuses the counts nothing is lost: they are written once it is back", async () => {
    const { key, organizationId } = await make.member();
    const sql = (text: string) => db.database.db.execute(sqlText.raw(text));
    for (let i = 0; i < 3; i++) await send(app, "/api/v1/whoami", { key });
    await sql("alter table quota_usage rename to quota_usage_away");
    try {
      await app.services.limits.quota.sync(); // fails: logged, counts kept
      const during = await send(app, "/api/v1/whoami", { key });
      expect(during.status, "requests go on without the database").toBe(200);
      expect(during.headers.get("x-quota-used")).toBe("4");
    } finally {
      await sql("alter table quota_usage_away rename to quota_usage");
    }
    await app.services.limits.quota.sync();
    const rows = await db.database.db
      .select({ count: quotaUsage.count })
      .from(quotaUsage)
      .where(eq(quotaUsage.organizationId, organizationId));
    expect(
      rows.reduce((sum, r) => sum + r.count, 0),
      "each request written exactly once",
    ).toBe(4);
    expect(logs.some((l) => l.msg === "could not record quota usage; will retry")).toBe(true);
    expect((await send(app, "/api/v1/whoami", { key })).headers.get("x-quota-used")).toBe("5");
  });

  test("one organization's spent quota does not touch another's", async () => {
    const spent = await memberWithQuota(0);
    const other = await make.member();
    expect((await send(app, "/api/v1/whoami", { key: spent.key })).status).toBe(429);
    expect((await send(app, "/api/v1/whoami", { key: other.key })).status).toBe(200);
  });
}

describeEachDriver("daily quota refusals", suite);
