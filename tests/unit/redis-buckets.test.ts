import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { RedisClient } from "bun";
import {
  BUCKET_SCRIPT,
  type RedisCommands,
  RedisRateLimiter,
} from "../../src/limits/redis-buckets.ts";
import { type BucketRule, MemoryRateLimiter, remaining } from "../../src/limits/token-bucket.ts";
import { createLogger } from "../../src/logger.ts";

const logs: Record<string, unknown>[] = [];
const logger = createLogger("info", (line) => logs.push(JSON.parse(line)));
const key = (limit = 3): BucketRule => ({ name: "key", limit, windowMs: 60_000 });

test("a Redis that never answers: after 250 ms the in-process bucket decides", async () => {
  const hanging: RedisCommands = { send: () => new Promise(() => {}) };
  const limiter = new RedisRateLimiter(hanging, new MemoryRateLimiter(), logger);
  const started = performance.now();
  const result = await limiter.take([key()], ["hang"]);
  expect(result.allowed).toBe(true);
  expect(performance.now() - started).toBeLessThan(1_000);
  const again = performance.now();
  await limiter.take([key()], ["hang"]);
  expect(performance.now() - again, "the next requests do not wait for it").toBeLessThan(50);
});

test("NOSCRIPT (Redis restarted): the script is sent again and the answer used", async () => {
  const calls: string[] = [];
  const fake: RedisCommands = {
    async send(command) {
      calls.push(command);
      if (command === "SCRIPT") return "sha1";
      if (command === "EVALSHA") throw new Error("NOSCRIPT No matching script");
      return [1, 2500];
    },
  };
  const limiter = new RedisRateLimiter(fake, new MemoryRateLimiter(), logger);
  const result = await limiter.take([key()], ["x"]);
  expect(calls).toEqual(["SCRIPT", "EVALSHA", "EVAL"]);
  expect(result).toEqual({ allowed: true, tokens: [2.5] });
});

test("an unreachable Redis (Bun's client, as the entry builds it): fail open, log once", async () => {
  const client = new RedisClient("redis://127.0.0.1:1", {
    enableOfflineQueue: false,
    connectionTimeout: 200,
  });
  const limiter = new RedisRateLimiter(client, new MemoryRateLimiter(), logger);
  logs.length = 0;
  const results: boolean[] = [];
  for (let i = 0; i < 4; i++) results.push((await limiter.take([key()], ["down"])).allowed);
  expect(results, "the in-process bucket of 3 decides").toEqual([true, true, true, false]);
  expect(logs.filter((l) => l.level === "warn")).toHaveLength(1);
  client.close();
});

const redisUrl = process.env.TEST_REDIS_URL;

test.skipIf(!redisUrl)("the script on a real Redis: counts down, refuses, expires", async () => {
  const client = new RedisClient(redisUrl);
  const prefix = `orgit:test:${crypto.randomUUID()}:`;
  const limiter = new RedisRateLimiter(client, new MemoryRateLimiter(), logger, prefix);
  try {
    const left: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await limiter.take([key()], ["k"]);
      left.push(remaining(r.tokens[0] ?? -1));
    }
    expect(left).toEqual([2, 1, 0]);
    const refused = await limiter.take([key()], ["k"]);
    expect(refused.allowed).toBe(false);
    const ttl = Number(await client.send("PTTL", [`${prefix}key:k`]));
    expect(ttl, "the bucket expires once it would be full again").toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    // all or nothing across buckets: a refused burst leaves the key bucket alone
    const rules: BucketRule[] = [key(10), { name: "burst", limit: 1, windowMs: 1_000 }];
    await limiter.take(rules, ["other", "b"]);
    const both = await limiter.take(rules, ["other", "b"]);
    expect(both.allowed).toBe(false);
    expect(both.tokens.map(remaining), "the key bucket kept its token").toEqual([9, 0]);
  } finally {
    const keys = (await client.send("KEYS", [`${prefix}*`])) as string[];
    if (keys.length > 0) await client.send("DEL", keys);
    client.close();
  }
});

/**
 * RedisRateLimiter's own logic: the commands it sends, how it reads the reply, and failing open
 * (the in-process buckets decide, Redis is left alone for 5 s, a warning at most every 30 s). A
 * recording stand-in answers for Redis here; the script itself runs on the real Redis above.
 */
describe("RedisRateLimiter against a recording stand-in", () => {
  const logs: { level: string; msg: string; error?: string }[] = [];
  const logger = createLogger("info", (line) => logs.push(JSON.parse(line)));
  const key: BucketRule = { name: "key", limit: 3, windowMs: 60_000 };
  const burst: BucketRule = { name: "burst", limit: 10, windowMs: 1_000 };
  const T0 = Date.parse("2033-03-03T03:03:03.000Z");

  afterEach(() => {
    logs.length = 0;
    setSystemTime();
  });

  /** Answers like Redis would (or fails), and records every command with its arguments. */
  function recorder(answer: (command: string, args: string[]) => unknown) {
    const sent: [string, string[]][] = [];
    const redis: RedisCommands & { sent: typeof sent; connects: number } = {
      sent,
      connects: 0,
      async send(command, args) {
        sent.push([command, args]);
        return answer(command, args);
      },
      async connect() {
        redis.connects++;
      },
    };
    return redis;
  }
  const fine = (command: string) => (command === "SCRIPT" ? "sha-1" : [1, 2500, 9000]);
  const warnings = () => logs.filter((l) => l.level === "warn");

  test("start connects, then loads the script; takes send EVALSHA with the keys, then limit and window per bucket", async () => {
    const redis = recorder(fine);
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger, "p:");
    await limiter.start();
    expect(redis.connects).toBe(1);
    expect(redis.sent).toEqual([["SCRIPT", ["LOAD", BUCKET_SCRIPT]]]);
    const taken = await limiter.take([key, burst], ["k1", "k1"]);
    expect(redis.sent[1]).toEqual([
      "EVALSHA",
      ["sha-1", "2", "p:key:k1", "p:burst:k1", "3", "60000", "10", "1000"],
    ]);
    expect(taken).toEqual({ allowed: true, tokens: [2.5, 9] });
    expect(warnings()).toEqual([]);
  });

  test("a client without connect(): start loads the script, without a warning", async () => {
    const sent: string[] = [];
    const limiter = new RedisRateLimiter(
      {
        async send(command) {
          sent.push(command);
          return "sha";
        },
      },
      new MemoryRateLimiter(),
      logger,
    );
    await limiter.start();
    expect(sent).toEqual(["SCRIPT"]);
    expect(warnings()).toEqual([]);
  });

  test("an answer in time leaves no timer behind (the 250 ms wait is cleared)", async () => {
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    const live = new Set<unknown>();
    globalThis.setTimeout = ((task: () => void, ms: number) => {
      const timer = realSet(() => {
        live.delete(timer);
        task();
      }, ms);
      live.add(timer);
      return timer;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((timer: ReturnType<typeof setTimeout>) => {
      live.delete(timer);
      realClear(timer);
    }) as typeof clearTimeout;
    try {
      const limiter = new RedisRateLimiter(recorder(fine), new MemoryRateLimiter(), logger);
      await limiter.start();
      await limiter.take([key], ["k11"]);
      expect(live.size).toBe(0);
    } finally {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
    }
  });

  test("the default key prefix is orgit:rl:", async () => {
    const redis = recorder(fine);
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    await limiter.take([key], ["k2"]);
    expect(redis.sent.map(([command, args]) => [command, args.slice(1)])).toEqual([
      ["SCRIPT", [BUCKET_SCRIPT]],
      ["EVALSHA", ["1", "orgit:rl:key:k2", "3", "60000"]],
    ]);
  });

  test("a refusal: allowed only when the first reply element is 1; tokens are thousandths", async () => {
    const redis = recorder((command) => (command === "SCRIPT" ? "sha" : [0, 999, -1500]));
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    expect(await limiter.take([key, burst], ["k3", "k3"])).toEqual({
      allowed: false,
      tokens: [0.999, -1.5],
    });
  });

  test("Redis failing at start: one warning with the error; requests still go to Redis", async () => {
    setSystemTime(T0);
    const redis = recorder((command) => {
      if (command === "SCRIPT" && redis.sent.length === 1)
        throw new Error("LOADING Redis is loading");
      return fine(command);
    });
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    await limiter.start();
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: "Redis rate limiter unavailable; using in-process buckets",
        error: "Error: LOADING Redis is loading",
      }),
    ]);
    // the script is loaded on first use instead
    expect(await limiter.take([key], ["k4"])).toEqual({ allowed: true, tokens: [2.5] });
    expect(redis.sent.map(([c]) => c)).toEqual(["SCRIPT", "SCRIPT", "EVALSHA"]);
  });

  test("an error: the in-process bucket decides, Redis is left alone for 5 s, one warning per 30 s", async () => {
    setSystemTime(T0);
    let down = true;
    const redis = recorder((command) => {
      if (down) throw new Error("ECONNRESET");
      return fine(command);
    });
    const fallback = new MemoryRateLimiter();
    const limiter = new RedisRateLimiter(redis, fallback, logger);
    const results: boolean[] = [];
    for (let i = 0; i < 4; i++) results.push((await limiter.take([key], ["k5"])).allowed);
    expect(results, "the in-process bucket of 3 decides").toEqual([true, true, true, false]);
    expect(redis.sent, "tried once, then left alone").toHaveLength(1);
    expect(warnings()).toEqual([
      expect.objectContaining({
        msg: "Redis rate limiter unavailable; using in-process buckets",
        error: "Error: ECONNRESET",
      }),
    ]);
    expect(limiter.size).toBe(fallback.size);
    expect(limiter.size).toBe(1);

    setSystemTime(T0 + 4_999);
    await limiter.take([key], ["k5"]);
    expect(redis.sent, "still within the 5 s").toHaveLength(1);
    setSystemTime(T0 + 5_000);
    await limiter.take([key], ["k5"]);
    expect(redis.sent, "tried again after 5 s").toHaveLength(2);
    expect(warnings(), "failed again, but within 30 s of the warning").toHaveLength(1);

    setSystemTime(T0 + 30_000);
    await limiter.take([key], ["k5"]);
    expect(warnings(), "30 s after the first warning, another").toHaveLength(2);

    down = false;
    setSystemTime(T0 + 35_000);
    expect(await limiter.take([key], ["k5"])).toEqual({ allowed: true, tokens: [2.5] });
  });

  test("the warning right after start's own warning waits its 30 s", async () => {
    setSystemTime(T0);
    const redis = recorder(() => {
      throw new Error("ECONNREFUSED");
    });
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    await limiter.start();
    await limiter.take([key], ["k6"]);
    expect(warnings()).toHaveLength(1);
  });

  test("NOSCRIPT: the script is sent whole with EVAL, and loaded again before the next EVALSHA", async () => {
    let forgotten = true;
    const redis = recorder((command) => {
      if (command === "SCRIPT") return "sha-2";
      if (command === "EVALSHA" && forgotten) {
        forgotten = false;
        throw new Error("NOSCRIPT No matching script. Please use EVAL.");
      }
      return [1, 1000];
    });
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    await limiter.start();
    expect(await limiter.take([key], ["k7"])).toEqual({ allowed: true, tokens: [1] });
    expect(redis.sent[2]).toEqual(["EVAL", [BUCKET_SCRIPT, "1", "orgit:rl:key:k7", "3", "60000"]]);
    await limiter.take([key], ["k7"]);
    expect(redis.sent.map(([c]) => c)).toEqual(["SCRIPT", "EVALSHA", "EVAL", "SCRIPT", "EVALSHA"]);
    expect(warnings()).toEqual([]);
  });

  test("any other EVALSHA error is an outage, not a reason to send the script", async () => {
    const redis = recorder((command) => {
      if (command === "SCRIPT") return "sha-3";
      throw new Error("OOM command not allowed");
    });
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    expect((await limiter.take([key], ["k8"])).allowed).toBe(true);
    expect(redis.sent.map(([c]) => c)).toEqual(["SCRIPT", "EVALSHA"]);
    expect(warnings()).toEqual([
      expect.objectContaining({ error: "Error: OOM command not allowed" }),
    ]);
  });

  test("an answer later than 250 ms counts as an outage, with the time in the warning", async () => {
    let release = () => {};
    const redis = recorder((command) =>
      command === "SCRIPT" ? "sha" : new Promise((resolve) => (release = () => resolve([1, 0]))),
    );
    const limiter = new RedisRateLimiter(redis, new MemoryRateLimiter(), logger);
    const started = performance.now();
    expect((await limiter.take([key], ["k9"])).tokens).toEqual([2]);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(240);
    expect(waited).toBeLessThan(2_000);
    expect(warnings()).toEqual([
      expect.objectContaining({ error: "Error: Redis did not answer within 250 ms" }),
    ]);
    release();
  });

  test("sweep reaches the in-process buckets", async () => {
    setSystemTime(T0);
    const fallback = new MemoryRateLimiter(() => Date.now());
    const limiter = new RedisRateLimiter(
      recorder(() => {
        throw new Error("down");
      }),
      fallback,
      logger,
    );
    await limiter.take([{ name: "burst", limit: 1, windowMs: 1_000 }], ["k10"]);
    expect(limiter.size).toBe(1);
    setSystemTime(T0 + 60_000);
    limiter.sweep();
    expect(limiter.size, "a bucket full again is swept").toBe(0);
  });

  const redisUrl = process.env.TEST_REDIS_URL;

  test.skipIf(!redisUrl)(
    "on a real Redis, the default prefix names the bucket orgit:rl:<name>:<id>",
    async () => {
      const client = new RedisClient(redisUrl);
      const id = crypto.randomUUID();
      try {
        const limiter = new RedisRateLimiter(client, new MemoryRateLimiter(), logger);
        await limiter.start();
        expect((await limiter.take([key], [id])).tokens).toEqual([2]);
        expect(Number(await client.send("EXISTS", [`orgit:rl:key:${id}`]))).toBe(1);
      } finally {
        await client.send("DEL", [`orgit:rl:key:${id}`]);
        client.close();
      }
    },
  );
});
