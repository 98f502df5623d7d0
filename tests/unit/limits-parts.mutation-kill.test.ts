import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import type { Database } from "../../src/db/client.ts";
import { organizations } from "../../src/db/schema/index.ts";
import { forbidden, unauthenticated } from "../../src/errors.ts";
import { createLimits } from "../../src/limits/create.ts";
import { IpBlocks } from "../../src/limits/ip-blocks.ts";
import { andThen, type Headers, isAuthFailure, noLimits } from "../../src/limits/limits.ts";
import { dailyQuota, PLAN_DAILY_QUOTA, writeQuotaHeaders } from "../../src/limits/quota.ts";
import type { QuotaCheck, QuotaCounter } from "../../src/limits/quota-store.ts";
import type { RedisCommands } from "../../src/limits/redis-buckets.ts";
import type { BucketRule, RateLimiter, Taken } from "../../src/limits/token-bucket.ts";
import { createLogger } from "../../src/logger.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * The small pieces of src/limits driven directly (issue 20, mutation testing): the per-IP block
 * shortcut, the daily quota's numbers and headers, the Limits helpers and their no-op twin, and
 * createLimits' wiring (which buckets, which quota counter, which clock, which timers).
 */
const IP_RULE: BucketRule = { name: "ip", limit: 60, windowMs: 60_000 };

describe("IpBlocks", () => {
  let t = 1_000;
  const blocks = (max?: number) => new IpBlocks(IP_RULE, () => t, max);
  afterEach(() => {
    t = 1_000;
  });

  test("a noted address is blocked until its bucket holds a token again, refilling meanwhile", () => {
    const b = blocks();
    expect(b.tokens("198.51.100.1"), "never noted").toBeUndefined();
    b.note("198.51.100.1", 0.25); // one token a second: 0.75 missing → 750 ms
    expect(b.tokens("198.51.100.1")).toBe(0.25);
    t = 1_500;
    expect(b.tokens("198.51.100.1")).toBeCloseTo(0.75, 10);
    t = 1_749;
    expect(b.tokens("198.51.100.1")).toBeCloseTo(0.999, 10);
    t = 1_750;
    expect(b.tokens("198.51.100.1"), "a token again at exactly 750 ms").toBeUndefined();
    expect(b.tokens("198.51.100.2"), "only the noted address").toBeUndefined();
  });

  test("a deeper deficit blocks longer: -2 tokens wait 3 s", () => {
    const b = blocks();
    b.note("198.51.100.3", -2);
    t = 3_999;
    expect(b.tokens("198.51.100.3")).toBeCloseTo(0.999, 10);
    t = 4_000;
    expect(b.tokens("198.51.100.3")).toBeUndefined();
  });

  test("an expired block is forgotten once read: a clock that goes back finds nothing", () => {
    const b = blocks();
    b.note("198.51.100.4", 0.5);
    t = 1_500;
    expect(b.tokens("198.51.100.4")).toBeUndefined();
    t = 1_200;
    expect(b.tokens("198.51.100.4")).toBeUndefined();
  });

  test("full: expired blocks are swept to make room; with none expired, a new address is not noted", () => {
    const b = blocks(2);
    b.note("a", 0.5); // until 1,500
    b.note("b", -9); // until 11,000
    b.note("c", 0);
    expect(b.tokens("c"), "no room: the bucket itself still refuses").toBeUndefined();
    t = 1_500;
    b.note("c", 0); // "a" is swept, "c" gets its place
    expect(b.tokens("c")).toBe(0);
    expect(b.tokens("b"), "the live block stays").toBeCloseTo(-8.5, 10);
  });

  test("sweep drops expired blocks only, from exactly their end", () => {
    const b = blocks(2);
    b.note("a", 0.5); // until 1,500
    b.note("b", -9); // until 11,000
    t = 1_499;
    b.sweep();
    b.note("c", 0);
    expect(b.tokens("c"), "nothing expired yet: still full").toBeUndefined();
    t = 1_500;
    b.sweep();
    t = 1_400; // back in time: "a" would still be live, had the sweep kept it
    b.note("c", 0);
    expect(b.tokens("a")).toBeUndefined();
    expect(b.tokens("c")).toBe(0);
    expect(b.tokens("b")).toBeCloseTo(-8.6, 10);
  });
});

describe("daily quota numbers and headers", () => {
  const org = (over: Partial<Parameters<typeof dailyQuota>[0]> = {}) => ({
    id: "o",
    plan: "PRO" as const,
    dailyQuota: null,
    unlimitedQuota: false,
    ...over,
  });

  test("plans: FREE 1,000, PRO 100,000, ENTERPRISE unlimited", () => {
    expect(PLAN_DAILY_QUOTA).toEqual({ FREE: 1_000, PRO: 100_000, ENTERPRISE: null });
    expect(dailyQuota(org({ plan: "FREE" }))).toBe(1_000);
    expect(dailyQuota(org())).toBe(100_000);
    expect(dailyQuota(org({ plan: "ENTERPRISE" }))).toBeNull();
  });

  test("the organization's own number wins over the plan, the unlimited flag over both", () => {
    expect(dailyQuota(org({ dailyQuota: 5 }))).toBe(5);
    expect(dailyQuota(org({ plan: "ENTERPRISE", dailyQuota: 7 }))).toBe(7);
    expect(dailyQuota(org({ dailyQuota: 0 })), "0 is a quota, not a missing one").toBe(0);
    expect(dailyQuota(org({ dailyQuota: 5, unlimitedQuota: true }))).toBeNull();
  });

  test("headers: limit, used and remaining; never a negative remainder; unlimited spelled out", () => {
    const headers: Headers = {};
    writeQuotaHeaders(headers, 100_000, { allowed: true, used: 1 });
    expect(headers).toEqual({
      "x-quota-limit": "100000",
      "x-quota-used": "1",
      "x-quota-remaining": "99999",
    });
    writeQuotaHeaders(headers, 10, { allowed: false, used: 12 });
    expect(headers).toEqual({
      "x-quota-limit": "10",
      "x-quota-used": "12",
      "x-quota-remaining": "0",
    });
    writeQuotaHeaders(headers, null, { allowed: true, used: 7 });
    expect(headers).toEqual({
      "x-quota-limit": "unlimited",
      "x-quota-used": "7",
      "x-quota-remaining": "unlimited",
    });
  });
});

describe("Limits helpers and noLimits", () => {
  test("andThen stays synchronous for a value and chains a promise", async () => {
    expect(andThen(3, (n) => n + 1)).toBe(4);
    const chained = andThen(Promise.resolve(3), (n) => n + 1);
    expect(chained).toBeInstanceOf(Promise);
    expect(await chained).toBe(4);
  });

  test("only a 401 counts as a failed authentication", () => {
    expect(isAuthFailure(unauthenticated("Invalid API key"))).toBe(true);
    expect(isAuthFailure(forbidden("Missing scope: tickets:read"))).toBe(false);
    expect(isAuthFailure(new Error("Invalid API key"))).toBe(false);
  });

  test("noLimits runs the attempt, writes nothing and refuses nothing", async () => {
    const headers: Headers = {};
    expect(await noLimits.throttle(undefined, headers, async () => "principal")).toBe("principal");
    const failing = noLimits.throttle(undefined, headers, async () => {
      throw unauthenticated("Invalid API key");
    });
    await expect(failing).rejects.toThrow("Invalid API key");
    const key = {
      apiKey: { id: "k" },
      organization: { id: "o", plan: "FREE" as const, dailyQuota: 0, unlimitedQuota: false },
    };
    expect(
      noLimits.beforeAuth({ clientIp: "1.2.3.4" }, "/api/v1/whoami", false, headers),
    ).toBeUndefined();
    expect(noLimits.refuseBlocked({ clientIp: "1.2.3.4" }, headers)).toBeUndefined();
    expect(noLimits.failedAuth({ clientIp: "1.2.3.4" }, headers)).toBeUndefined();
    expect(noLimits.beforeAuthError({ clientIp: "1.2.3.4" }, headers)).toBeUndefined();
    expect(noLimits.afterAuth(undefined, "/api/v1/whoami", key, headers)).toBeUndefined();
    expect(noLimits.graphql(undefined, key, headers)).toBeUndefined();
    expect(headers).toEqual({});
    expect(noLimits.bucketCount).toBe(0);
    expect(noLimits.sweep()).toBeUndefined();
    expect(await noLimits.quota.sync()).toBeUndefined();
    expect(await noLimits.start()).toBeUndefined();
    expect(await noLimits.stop()).toBeUndefined();
  });
});

describe("createLimits", () => {
  let fresh: Awaited<ReturnType<typeof migratedPglite>>;
  let database: Database;
  let organizationId: string;
  const logs: { level: string; msg: string }[] = [];
  const logger = createLogger("debug", (line) => logs.push(JSON.parse(line)));
  const config = (env: Record<string, string> = {}) =>
    loadConfig({ RATE_LIMIT_KEY_PER_MIN: "2", RATE_LIMIT_BURST_PER_SEC: "100", ...env });
  const keyOf = (id: string) => ({
    apiKey: { id },
    organization: {
      id: organizationId,
      plan: "PRO" as const,
      dailyQuota: 3,
      unlimitedQuota: false,
    },
  });
  /** a whoami through afterAuth: the headers it writes, or the refusal's message */
  const call = async (limits: ReturnType<typeof createLimits>, id = "key-1") => {
    const headers: Headers = {};
    try {
      await limits.afterAuth(undefined, "/api/v1/whoami", keyOf(id), headers);
      return headers;
    } catch (error) {
      return (error as Error).message;
    }
  };

  beforeAll(async () => {
    fresh = await migratedPglite();
    database = fresh.database;
    const [row] = await database.db
      .insert(organizations)
      .values({ name: "Limits" })
      .returning({ id: organizations.id });
    organizationId = (row as { id: string }).id;
  });
  afterEach(() => {
    logs.length = 0;
  });
  afterAll(() => fresh.drop());

  test("in-process buckets on the injected clock, and the daily quota from the database", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const limits = createLimits(
      { config: config(), logger, database },
      { quotaSyncMs: 0, now: () => new Date(now) },
    );
    expect(await call(limits)).toMatchObject({ "x-ratelimit-remaining": "1", "x-quota-used": "1" });
    expect(await call(limits)).toMatchObject({ "x-ratelimit-remaining": "0", "x-quota-used": "2" });
    expect(await call(limits)).toBe("API key rate limit exceeded");
    expect(limits.bucketCount).toBeGreaterThan(0);
    now += 60_000; // the injected clock refills the key's bucket, not the wall clock
    expect(await call(limits)).toMatchObject({ "x-quota-used": "3", "x-quota-remaining": "0" });
    now += 60_000;
    expect(await call(limits)).toBe("API quota exceeded");
    expect(logs.filter((l) => l.level === "warn")).toEqual([]);
  });

  test("REDIS_URL without a client: a warning, and in-process buckets", async () => {
    const limits = createLimits(
      { config: config({ REDIS_URL: "redis://127.0.0.1:6379" }), logger, database },
      { quotaSyncMs: 0, quota: roomyQuota() },
    );
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: "REDIS_URL is set but this runtime has no Redis client; using in-process buckets",
      }),
    );
    expect(await call(limits)).toMatchObject({ "x-ratelimit-remaining": "1" });
    expect(limits.bucketCount).toBeGreaterThan(0);
  });

  test("a Redis client: the buckets are Redis's (its script is loaded at start)", async () => {
    const commands: string[] = [];
    const redis: RedisCommands = {
      async send(command) {
        commands.push(command);
        if (command === "SCRIPT") return "sha";
        return [1, 1500]; // allowed, 1.5 tokens left in the one bucket
      },
    };
    const limits = createLimits(
      { config: config(), logger, database },
      { quotaSyncMs: 0, quota: roomyQuota(), redis, redisPrefix: "orgit:test:" },
    );
    await limits.start();
    expect(commands).toEqual(["SCRIPT"]);
    expect(await call(limits)).toMatchObject({ "x-ratelimit-remaining": "1" });
    expect(commands).toEqual(["SCRIPT", "EVALSHA"]);
    expect(logs.filter((l) => l.level === "warn")).toEqual([]);
    await limits.stop();
  });

  test("injected buckets and quota counter are the ones used", async () => {
    const drawn: string[][] = [];
    const limiter: RateLimiter = {
      take(_rules: readonly BucketRule[], ids: readonly string[]): Taken {
        drawn.push([...ids]);
        return { allowed: true, tokens: ids.map(() => 9) };
      },
    };
    const quota = roomyQuota();
    const limits = createLimits(
      { config: config(), logger, database },
      { quotaSyncMs: 0, limiter, quota },
    );
    expect(await call(limits, "key-9")).toMatchObject({
      "x-ratelimit-remaining": "9",
      "x-quota-used": "41",
    });
    expect(drawn).toEqual([["key-9", "key-9"]]);
    expect(quota.checks).toEqual([organizationId]);
  });

  test("start sets the quota sync and the idle-bucket sweep; stop clears them and writes the last counts", async () => {
    const set: { ms: number; task: () => unknown; unref: boolean }[] = [];
    const cleared: unknown[] = [];
    const realSet = globalThis.setInterval;
    const realClear = globalThis.clearInterval;
    const quota = roomyQuota();
    const limits = createLimits(
      { config: config(), logger, database },
      { quotaSyncMs: 250, quota },
    );
    const sweeps: number[] = [];
    const originalSweep = limits.sweep.bind(limits);
    limits.sweep = () => {
      sweeps.push(1);
      originalSweep();
    };
    try {
      globalThis.setInterval = ((task: () => unknown, ms: number) => {
        const entry = { ms, task, unref: false };
        set.push(entry);
        return {
          unref: () => {
            entry.unref = true;
          },
        };
      }) as unknown as typeof setInterval;
      globalThis.clearInterval = ((timer: unknown) => {
        cleared.push(timer);
      }) as typeof clearInterval;
      await limits.start();
      expect(set.map((s) => [s.ms, s.unref])).toEqual([
        [250, true],
        [10_000, true],
      ]);
      set[0]?.task();
      expect(quota.syncs).toBe(1);
      set[1]?.task();
      expect(sweeps).toEqual([1]);
      await limits.stop();
      expect(cleared).toHaveLength(2);
      expect(quota.syncs, "the last counts are written at stop").toBe(2);
    } finally {
      globalThis.setInterval = realSet;
      globalThis.clearInterval = realClear;
    }
  });

  test("quotaSyncMs 0: no sync timer, only the sweep; the counts are written at stop", async () => {
    const set: number[] = [];
    const realSet = globalThis.setInterval;
    const quota = roomyQuota();
    const limits = createLimits({ config: config(), logger, database }, { quotaSyncMs: 0, quota });
    try {
      globalThis.setInterval = ((_task: () => unknown, ms: number) => {
        set.push(ms);
        return realSet(() => {}, 1_000_000);
      }) as unknown as typeof setInterval;
      await limits.start();
    } finally {
      globalThis.setInterval = realSet;
    }
    expect(set).toEqual([10_000]);
    await limits.stop();
    expect(quota.syncs).toBe(1);
  });

  test("without quotaSyncMs, the counts are written every second", async () => {
    const set: number[] = [];
    const realSet = globalThis.setInterval;
    const limits = createLimits({ config: config(), logger, database }, { quota: roomyQuota() });
    try {
      globalThis.setInterval = ((_task: () => unknown, ms: number) => {
        set.push(ms);
        return realSet(() => {}, 1_000_000);
      }) as unknown as typeof setInterval;
      await limits.start();
    } finally {
      globalThis.setInterval = realSet;
    }
    expect(set).toEqual([1_000, 10_000]);
    await limits.stop();
  });
});

/** A quota counter that allows everything and counts what it was asked. */
function roomyQuota(): QuotaCounter & { checks: string[]; syncs: number } {
  const counter = {
    checks: [] as string[],
    syncs: 0,
    check(organizationId: string): QuotaCheck {
      counter.checks.push(organizationId);
      return { allowed: true, used: 41 };
    },
    async sync() {
      counter.syncs++;
    },
  };
  return counter;
}
