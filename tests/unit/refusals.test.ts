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

test("refusals: long waits are built each time, one hour is kept, only the rules count", () => {
  const hour: BucketRule = { name: "ip", limit: 1, windowMs: 3_600_000 };
  const kept = tooMany("kept for an hour", [hour], [0]);
  expect(kept.headers).toEqual({ "retry-after": "3600" });
  expect(tooMany("kept for an hour", [hour], [0])).toBe(kept);
  const longer: BucketRule = { name: "ip", limit: 1, windowMs: 3_601_000 };
  const built = tooMany("kept for an hour", [longer], [0]);
  expect(built.body()).toEqual({ error: "kept for an hour", retryAfter: 3601 });
  expect(tooMany("kept for an hour", [longer], [0])).not.toBe(built);
  // tokens past the rules (the per-IP 429 of a keyed request) are not read
  const ip: BucketRule = { name: "ip", limit: 4, windowMs: 60_000 };
  expect(tooMany("rules only", [ip], [0, 0, 0]).body()).toEqual({
    error: "rules only",
    retryAfter: 15,
  });
});

test("quota refusals: one per limit is kept, at most 1,024 limits at a time", () => {
  // fill up until the map is cleared: the first answer is no longer kept
  const first = quotaExceeded(80_000, 1);
  let limit = 80_001;
  while (quotaExceeded(80_000, 1) === first) {
    quotaExceeded(limit++, 1);
    if (limit > 82_100) throw new Error("never cleared");
  }
  // cleared on the insert of limit - 1; the probe that noticed added 80,000 again: 2 answers
  // are kept now, and 1,022 more fit
  const kept = quotaExceeded(limit - 1, 1);
  for (let i = 0; i < 1_022; i++) quotaExceeded(90_000 + i, 1);
  expect(quotaExceeded(limit - 1, 1), "1,024 answers kept").toBe(kept);
  quotaExceeded(95_000, 1);
  expect(quotaExceeded(limit - 1, 1), "the 1,025th clears them").not.toBe(kept);
  // two answers are kept now, far from the bound: another limit does not push one out
  const a = quotaExceeded(70_001, 70_001);
  quotaExceeded(70_002, 70_002);
  expect(quotaExceeded(70_001, 70_001), "another limit does not push it out").toBe(a);
});
