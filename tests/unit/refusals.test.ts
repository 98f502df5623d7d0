import { expect, test } from "bun:test";
import { quotaExceeded, tooMany } from "../../src/limits/refusals.ts";
import type { BucketRule } from "../../src/limits/token-bucket.ts";

/** one token every 30 s */
const ip: BucketRule = { name: "ip", limit: 2, windowMs: 60_000 };
const burst: BucketRule = { name: "burst", limit: 10, windowMs: 1_000 };

test("a rate-limit 429 waits for the slowest empty bucket; the same answer is built once", () => {
  const refusal = tooMany("Too many requests", [ip, burst], [0.5, 0]);
  expect(refusal.status).toBe(429);
  expect(refusal.body()).toEqual({ error: "Too many requests", retryAfter: 15 });
  expect(refusal.headers).toEqual({ "retry-after": "15" });
  expect(tooMany("Too many requests", [ip, burst], [0.5, 5]), "the same answer").toBe(refusal);
  const sooner = tooMany("Too many requests", [ip], [0.75]);
  expect(sooner.body(), "another wait: another answer").toEqual({
    error: "Too many requests",
    retryAfter: 8,
  });
  expect(tooMany("API key rate limit exceeded", [ip], [0.5]).body()).toEqual({
    error: "API key rate limit exceeded",
    retryAfter: 15,
  });
});

test("a quota 429 carries its limit and count; a new count is a new answer", () => {
  const first = quotaExceeded(1_000, 1_000);
  expect(first.body()).toEqual({
    error: "API quota exceeded",
    limit: 1_000,
    used: 1_000,
    window: "24h",
  });
  expect(first.headers).toEqual({ "retry-after": "3600" });
  expect(quotaExceeded(1_000, 1_000), "asked again with the same count").toBe(first);
  expect(quotaExceeded(1_000, 1_002).body()).toEqual({
    error: "API quota exceeded",
    limit: 1_000,
    used: 1_002,
    window: "24h",
  });
  expect(quotaExceeded(50, 1_000).body(), "another limit").toEqual({
    error: "API quota exceeded",
    limit: 50,
    used: 1_000,
    window: "24h",
  });
});
