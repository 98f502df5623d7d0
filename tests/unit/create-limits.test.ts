import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config.ts";
import type { Database } from "../../src/db/client.ts";
import { organizations } from "../../src/db/schema/index.ts";
import { surfaceOf } from "../../src/http/surfaces.ts";
import { createLimits } from "../../src/limits/create.ts";
import type { Headers } from "../../src/limits/limits.ts";
import type { QuotaCheck, QuotaCounter } from "../../src/limits/quota-store.ts";
import type { RedisCommands } from "../../src/limits/redis-buckets.ts";
import type { BucketRule, RateLimiter, Taken } from "../../src/limits/token-bucket.ts";
import { createLogger } from "../../src/logger.ts";
import { migratedPglite } from "../helpers/pglite-snapshot.ts";

/**
 * src/limits/create.ts: which buckets (in process or Redis), which quota counter, which clock
 * and which timers the limits are built with.
 */

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
  /** a keyed whoami's question: the headers it writes, or the refusal's message */
  const call = async (limits: ReturnType<typeof createLimits>, id = "key-1") => {
    const headers: Headers = {};
    const refused = await limits.limit(
      surfaceOf("/api/v1/whoami", true),
      "10.0.0.1",
      keyOf(id),
      headers,
    );
    return refused ? refused.message : headers;
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
    expect(drawn).toEqual([["10.0.0.1", "key-9", "key-9"]]);
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
