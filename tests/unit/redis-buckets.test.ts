import { expect, test } from "bun:test";
import { RedisClient } from "bun";
import { type RedisCommands, RedisRateLimiter } from "../../src/limits/redis-buckets.ts";
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
