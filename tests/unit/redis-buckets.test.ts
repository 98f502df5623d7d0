import { expect, test } from "bun:test";
import { RedisClient } from "bun";
import { type RedisCommands, RedisRateLimiter } from "../../src/http/redis-buckets.ts";
import { type BucketSpec, MemoryRateLimiter, remaining } from "../../src/http/token-bucket.ts";
import { createLogger } from "../../src/logger.ts";

const logs: Record<string, unknown>[] = [];
const logger = createLogger("info", (line) => logs.push(JSON.parse(line)));
const spec = (id: string, limit = 3): BucketSpec => ({ name: "key", id, limit, windowMs: 60_000 });

test("a Redis that never answers: after 250 ms the in-process bucket decides", async () => {
  const hanging: RedisCommands = { send: () => new Promise(() => {}) };
  const limiter = new RedisRateLimiter(hanging, new MemoryRateLimiter(), logger);
  const started = performance.now();
  const [result] = await limiter.consume([spec("hang")]);
  expect(result?.allowed).toBe(true);
  expect(performance.now() - started).toBeLessThan(1_000);
  const again = performance.now();
  await limiter.consume([spec("hang")]);
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
  const [result] = await limiter.consume([spec("x")]);
  expect(calls).toEqual(["SCRIPT", "EVALSHA", "EVAL"]);
  expect(result).toEqual({ name: "key", limit: 3, windowMs: 60_000, tokens: 2.5, allowed: true });
});

test("an unreachable Redis (Bun's client, as the entry builds it): fail open, log once", async () => {
  const client = new RedisClient("redis://127.0.0.1:1", {
    enableOfflineQueue: false,
    connectionTimeout: 200,
  });
  const limiter = new RedisRateLimiter(client, new MemoryRateLimiter(), logger);
  logs.length = 0;
  const results = [];
  for (let i = 0; i < 4; i++) results.push(...(await limiter.consume([spec("down")])));
  expect(
    results.map((r) => r.allowed),
    "the in-process bucket of 3 decides",
  ).toEqual([true, true, true, false]);
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
      const [r] = await limiter.consume([spec("k")]);
      if (r) left.push(remaining(r));
    }
    expect(left).toEqual([2, 1, 0]);
    const [refused] = await limiter.consume([spec("k")]);
    expect(refused?.allowed).toBe(false);
    const ttl = Number(await client.send("PTTL", [`${prefix}key:k`]));
    expect(ttl, "the bucket expires once it would be full again").toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(61_000);
    // all or nothing across buckets: a refused burst leaves the key bucket alone
    const burst: BucketSpec = { name: "burst", id: "b", limit: 1, windowMs: 1_000 };
    await limiter.consume([spec("other", 10), burst]);
    const both = await limiter.consume([spec("other", 10), burst]);
    expect(both.map((r) => r.allowed)).toEqual([false, false]);
    expect(both[0] && remaining(both[0])).toBe(9);
  } finally {
    const keys = (await client.send("KEYS", [`${prefix}*`])) as string[];
    if (keys.length > 0) await client.send("DEL", keys);
    client.close();
  }
});
