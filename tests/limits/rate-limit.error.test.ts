import { describe, expect, test } from "bun:test";
import type { RedisCommands } from "../../src/limits/redis-buckets.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

function suite(driver: DriverName) {
  describe("refusals", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: {
        RATE_LIMIT_IP_PER_MIN: "2",
        RATE_LIMIT_KEY_PER_MIN: "600",
        RATE_LIMIT_BURST_PER_SEC: "10",
      },
      now: clock.now,
    });

    test("the per-IP 429 comes before authentication, says when to retry, and is not counted in the quota", async () => {
      const { key } = await make.member();
      const peer = "192.0.2.30";
      const first = await send(app, "/api/v1/whoami", { key, peer });
      expect(first.headers.get("x-quota-used")).toBe("1");
      await send(app, "/api/v1/whoami", { key, peer });
      const refused = await send(app, "/api/v1/whoami", { key, peer });
      expect(refused.status).toBe(429);
      // 2 a minute: one token every 30 s
      expect(await refused.json()).toEqual({ error: "Too many requests", retryAfter: 30 });
      expect(refused.headers.get("retry-after")).toBe("30");
      expect(refused.headers.get("x-ratelimit-limit")).toBe("2");
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(refused.headers.get("x-ratelimit-reset")).toBe("60");
      expect(refused.headers.get("x-quota-used"), "no quota step ran").toBeNull();
      clock.advance(29_000);
      expect((await send(app, "/api/v1/whoami", { key, peer })).status).toBe(429);
      clock.advance(1_000);
      const again = await send(app, "/api/v1/whoami", { key, peer });
      expect(again.status).toBe(200);
      expect(again.headers.get("x-quota-used"), "the refused ones were not counted").toBe("3");
    });

    test("Retry-After is a whole number of seconds and at least 1, even 1 ms before a token", async () => {
      const { key } = await make.member();
      for (let i = 0; i < 10; i++) {
        await send(app, "/api/v1/whoami", { key, peer: `192.0.2.${40 + (i % 5)}` });
      }
      clock.advance(99);
      const refused = await send(app, "/api/v1/whoami", { key, peer: "192.0.2.46" });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect((await refused.json()).retryAfter).toBe(1);
    });
  });

  describe("Redis failing", () => {
    const logs: Record<string, unknown>[] = [];
    const broken: RedisCommands = {
      send: () => Promise.reject(new Error("Connection closed")),
    };
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: { RATE_LIMIT_BURST_PER_SEC: "10" },
      redis: broken,
      now: clock.now,
      logs,
    });

    test("fails open to in-process buckets, which still limit, and logs the outage once", async () => {
      const { key } = await make.member();
      for (let i = 0; i < 10; i++) {
        expect((await send(app, "/api/v1/whoami", { key })).status).toBe(200);
      }
      expect((await send(app, "/api/v1/whoami", { key })).status).toBe(429);
      const warnings = logs.filter(
        (l) => l.msg === "Redis rate limiter unavailable; using in-process buckets",
      );
      expect(warnings.length, "logged, but not once per request").toBe(1);
      expect(warnings[0]?.error).toContain("Connection closed");
    });
  });

  describe("REDIS_URL without a Redis client (the Deno entry)", () => {
    const logs: Record<string, unknown>[] = [];
    // a stopped clock: the burst bucket cannot refill between requests on a loaded machine
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: { REDIS_URL: "redis://127.0.0.1:6379", RATE_LIMIT_BURST_PER_SEC: "10" },
      logs,
      now: clock.now,
    });

    test("says so in the log and limits with in-process buckets", async () => {
      expect(logs.map((l) => l.msg)).toContain(
        "REDIS_URL is set but this runtime has no Redis client; using in-process buckets",
      );
      const { key } = await make.member();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await send(app, "/api/v1/whoami", { key })).status);
      expect(statuses.at(-1)).toBe(429);
    });
  });
}

describeEachDriver("rate limit refusals", suite);
