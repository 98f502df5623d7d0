import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { quotaUsage } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { eventually } from "../helpers/webhook-receiver.ts";

const quotaHeaders = (response: Response) => ({
  limit: response.headers.get("x-quota-limit"),
  used: response.headers.get("x-quota-used"),
  remaining: response.headers.get("x-quota-remaining"),
});

function suite(driver: DriverName) {
  describe("one instance", () => {
    const clock = manualClock();
    const { app, db, make } = useTestApp(driver, { now: clock.now });

    test("X-Quota-Used is exact after N sequential and N concurrent requests", async () => {
      const { key } = await make.member();
      for (let i = 1; i <= 5; i++) {
        const response = await send(app, "/api/v1/whoami", { key });
        expect(quotaHeaders(response)).toEqual({
          limit: "100000",
          used: String(i),
          remaining: String(100_000 - i),
        });
      }
      const concurrent = await Promise.all(
        Array.from({ length: 40 }, () => send(app, "/api/v1/whoami", { key })),
      );
      const used = concurrent
        .map((r) => Number(r.headers.get("x-quota-used")))
        .sort((a, b) => a - b);
      expect(used, "each concurrent request got its own count").toEqual(
        Array.from({ length: 40 }, (_, i) => 6 + i),
      );
      const after = await send(app, "/api/v1/whoami", { key });
      expect(after.headers.get("x-quota-used")).toBe("46");
    });

    test("a fresh organization's first requests, all at once, are each counted once", async () => {
      const { key } = await make.member();
      const responses = await Promise.all(
        Array.from({ length: 25 }, () => send(app, "/api/v1/whoami", { key })),
      );
      const used = responses
        .map((r) => Number(r.headers.get("x-quota-used")))
        .sort((a, b) => a - b);
      expect(used).toEqual(Array.from({ length: 25 }, (_, i) => 1 + i));
    });

    test("counts reach Postgres as per-minute buckets, within the 1 s flush", async () => {
      const { key, organizationId } = await make.member();
      for (let i = 0; i < 3; i++) await send(app, "/api/v1/whoami", { key });
      clock.advance(60_000);
      for (let i = 0; i < 2; i++) await send(app, "/api/v1/whoami", { key });
      await app.services.limits.quota.sync();
      const rows = await db.database.db
        .select({ minute: quotaUsage.minute, count: quotaUsage.count })
        .from(quotaUsage)
        .where(eq(quotaUsage.organizationId, organizationId))
        .orderBy(quotaUsage.minute);
      expect(rows.map((r) => r.count)).toEqual([3, 2]);
      const [first, second] = rows.map((r) => r.minute.getTime());
      expect(Number(second) - Number(first), "one bucket per minute").toBe(60_000);
    });

    test("a flush writes the counts and reads the totals back in one statement", async () => {
      const { key, organizationId } = await make.member();
      await send(app, "/api/v1/whoami", { key });
      await app.services.limits.quota.sync(); // the once-a-minute prune, if due, runs here
      for (let i = 0; i < 3; i++) await send(app, "/api/v1/whoami", { key });
      const before = db.database.stats.queries;
      await app.services.limits.quota.sync();
      expect(db.database.stats.queries - before, "one round trip").toBe(1);
      const rows = await db.database.db
        .select({ count: quotaUsage.count })
        .from(quotaUsage)
        .where(eq(quotaUsage.organizationId, organizationId));
      expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(4);
      const next = await send(app, "/api/v1/whoami", { key });
      expect(next.headers.get("x-quota-used"), "the total read back, plus this one").toBe("5");
    });

    test("the window slides: requests older than 24 h stop counting and are pruned", async () => {
      const { key, organizationId } = await make.member();
      for (let i = 0; i < 4; i++) await send(app, "/api/v1/whoami", { key });
      await app.services.limits.quota.sync();
      clock.advance(12 * 3_600_000);
      const half = await send(app, "/api/v1/whoami", { key });
      expect(half.headers.get("x-quota-used"), "12 h later the 4 still count").toBe("5");
      clock.advance(12 * 3_600_000 + 60_000);
      await app.services.limits.quota.sync();
      const day = await send(app, "/api/v1/whoami", { key });
      expect(day.headers.get("x-quota-used"), "24 h later only the 12 h one is left").toBe("2");
      await app.services.limits.quota.sync();
      const rows = await db.database.db
        .select({ count: quotaUsage.count })
        .from(quotaUsage)
        .where(eq(quotaUsage.organizationId, organizationId));
      expect(rows.map((r) => r.count).sort(), "the day-old bucket is gone").toEqual([1, 1]);
    });

    test("plan defaults, override and unlimited show in the headers", async () => {
      const free = await make.member({ plan: "FREE" });
      const freeAnswer = await send(app, "/api/v1/whoami", { key: free.key });
      expect(freeAnswer.status).toBe(403);
      expect(await freeAnswer.json()).toEqual({ error: "API access requires the Pro plan" });
      expect(quotaHeaders(freeAnswer)).toEqual({ limit: "1000", used: "1", remaining: "999" });

      const enterprise = await make.member({ plan: "ENTERPRISE" });
      const unlimited = await send(app, "/api/v1/whoami", { key: enterprise.key });
      expect(quotaHeaders(unlimited)).toEqual({
        limit: "unlimited",
        used: "1",
        remaining: "unlimited",
      });

      const pro = await make.member();
      await app.services.operator.updateOrganization(pro.organizationId, { dailyQuota: 50 });
      const overridden = await send(app, "/api/v1/whoami", { key: pro.key });
      expect(quotaHeaders(overridden)).toEqual({ limit: "50", used: "1", remaining: "49" });
      await app.services.operator.updateOrganization(pro.organizationId, { unlimitedQuota: true });
      const lifted = await send(app, "/api/v1/whoami", { key: pro.key });
      expect(quotaHeaders(lifted)).toEqual({
        limit: "unlimited",
        used: "2",
        remaining: "unlimited",
      });
    });

    test("/graphql and interface B neither count nor show the quota", async () => {
      const { key } = await make.member({ scopes: ["projects:read"] });
      await graphql(app, key, "{ whoami { user { id } } }");
      const b = await send(app, "/api/projects", { key });
      expect(b.headers.get("x-quota-used")).toBeNull();
      const a = await send(app, "/api/v1/whoami", { key });
      expect(a.headers.get("x-quota-used")).toBe("1");
    });
  });

  describe("several instances on one database", () => {
    // the production interval: one test relies on the timer alone
    const { app, db, make } = useTestApp(driver, { quotaSyncMs: 1_000 });

    test("two instances converge on one count", async () => {
      const other = await buildTestApp(await db.openAnother());
      try {
        const { key } = await make.member();
        for (let i = 0; i < 3; i++) await send(app, "/api/v1/whoami", { key });
        for (let i = 0; i < 4; i++) await send(other, "/api/v1/whoami", { key });
        await app.services.limits.quota.sync();
        await other.services.limits.quota.sync();
        await app.services.limits.quota.sync();
        expect((await send(app, "/api/v1/whoami", { key })).headers.get("x-quota-used")).toBe("8");
        await app.services.limits.quota.sync();
        await other.services.limits.quota.sync();
        expect((await send(other, "/api/v1/whoami", { key })).headers.get("x-quota-used")).toBe(
          "9",
        );
      } finally {
        await other.stop();
      }
    });

    test("the 1 s timer alone makes another instance's usage visible", async () => {
      const other = await buildTestApp(await db.openAnother(), { quotaSyncMs: 1_000 });
      try {
        const { key } = await make.member();
        await send(app, "/api/v1/whoami", { key });
        for (let i = 0; i < 5; i++) await send(other, "/api/v1/whoami", { key });
        // the timers (other's flush, app's reload) run on their own: /health peeks at the
        // count without consuming it until both have run
        await eventually(
          async () =>
            (await send(app, "/api/v1/health", { key })).headers.get("x-quota-used") === "6",
          "the other instance's 5 requests, seen through the timers",
        );
        expect((await send(app, "/api/v1/whoami", { key })).headers.get("x-quota-used")).toBe("7");
      } finally {
        await other.stop();
      }
    });

    test("a graceful restart loses no count", async () => {
      const first = await buildTestApp(await db.openAnother());
      const { key } = await make.member();
      for (let i = 0; i < 6; i++) await send(first, "/api/v1/whoami", { key });
      await first.stop(); // SIGTERM path: flushes what is still in memory
      const second = await buildTestApp(await db.openAnother());
      try {
        expect((await send(second, "/api/v1/whoami", { key })).headers.get("x-quota-used")).toBe(
          "7",
        );
      } finally {
        await second.stop();
      }
    });
  });
}

describeEachDriver("daily quota", suite);
