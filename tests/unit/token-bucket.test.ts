import { expect, test } from "bun:test";
import {
  type BucketRule,
  MemoryRateLimiter,
  remaining,
  secondsToFull,
  secondsToNextToken,
} from "../../src/limits/token-bucket.ts";

const ipRule: BucketRule = { name: "ip", limit: 60, windowMs: 60_000 };

function limiter(maxEntries?: number) {
  let now = 1_000_000;
  const store = new MemoryRateLimiter(() => now, maxEntries);
  return { store, advance: (ms: number) => (now += ms) };
}

test("a bucket starts full, loses one token per request and refills continuously", () => {
  const { store, advance } = limiter();
  const first = store.take([ipRule], ["a"]);
  expect(first.allowed).toBe(true);
  expect(remaining(first.tokens[0] ?? -1)).toBe(59);
  expect(secondsToFull(ipRule, first.tokens[0] ?? -1)).toBe(1);
  for (let i = 0; i < 59; i++) store.take([ipRule], ["a"]);
  const empty = store.take([ipRule], ["a"]);
  expect(empty.allowed).toBe(false);
  expect(secondsToNextToken(ipRule, empty.tokens[0] ?? -1)).toBe(1);
  expect(secondsToFull(ipRule, empty.tokens[0] ?? -1)).toBe(60);
  advance(30_000);
  const half = store.take([ipRule], ["a"]);
  expect(remaining(half.tokens[0] ?? -1), "30 s refill 30 tokens, one is taken").toBe(29);
});

test("several buckets are taken from together or not at all", () => {
  const { store } = limiter();
  const rules: BucketRule[] = [
    { name: "key", limit: 600, windowMs: 60_000 },
    { name: "burst", limit: 2, windowMs: 1_000 },
  ];
  store.take(rules, ["k", "k"]);
  store.take(rules, ["k", "k"]);
  const refused = store.take(rules, ["k", "k"]);
  expect(refused.allowed).toBe(false);
  expect(refused.tokens.map(remaining), "the key bucket kept its token").toEqual([598, 0]);
});

test("100,000 distinct addresses: memory stays bounded, and idle buckets are swept away", () => {
  const { store, advance } = limiter(50_000);
  for (let i = 0; i < 100_000; i++) {
    store.take([ipRule], [`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`]);
  }
  expect(store.size).toBeLessThanOrEqual(50_000);
  expect(store.size).toBeGreaterThanOrEqual(45_000);
  // the newest addresses keep their state
  const last = store.take([ipRule], ["10.1.134.159"]);
  expect(remaining(last.tokens[0] ?? -1)).toBe(58);
  advance(500);
  store.sweep();
  expect(store.size, "buckets still refilling are kept").toBeGreaterThanOrEqual(45_000);
  advance(1_500);
  store.sweep();
  expect(store.size, "full buckets are the same as new ones and go").toBe(0);
});

test("headers' arithmetic: whole seconds, reset never negative, retry at least 1", () => {
  const burst: BucketRule = { name: "burst", limit: 10, windowMs: 1_000 };
  expect(secondsToFull(burst, 10)).toBe(0);
  expect(secondsToFull(burst, 9.5)).toBe(1);
  expect(secondsToNextToken(burst, 0.999)).toBe(1);
  expect(secondsToNextToken(burst, 5)).toBe(1);
  const slow: BucketRule = { name: "ip", limit: 2, windowMs: 60_000 };
  expect(secondsToNextToken(slow, 0)).toBe(30);
  expect(secondsToNextToken(slow, 0.5)).toBe(15);
  expect(remaining(2.7)).toBe(2);
  expect(remaining(-0.5), "never negative").toBe(0);
});

/** one token a minute: over a few seconds a used bucket stays visibly apart from a fresh one */
const slowRule: BucketRule = { name: "ip", limit: 60, windowMs: 3_600_000 };
const left = (store: MemoryRateLimiter, id: string) =>
  remaining(store.take([slowRule], [id]).tokens[0] ?? -1);

test("past maxEntries exactly the least recently used go, down to 90 %", () => {
  const { store } = limiter(10);
  for (let i = 0; i < 10; i++) store.take([slowRule], [`c${i}`]);
  expect(store.size, "at the bound nothing is evicted").toBe(10);
  store.take([slowRule], ["c10"]);
  expect(store.size, "one over: trimmed to 9").toBe(9);
  // c0 and c1 (oldest) were dropped and start fresh; c2 kept its state
  expect(left(store, "c2")).toBe(58);
  expect(left(store, "c0")).toBe(59);
});

test("a bucket used again a second later moves to the young end and survives eviction", () => {
  const { store, advance } = limiter(10);
  store.take([slowRule], ["old"]);
  for (let i = 1; i < 10; i++) store.take([slowRule], [`c${i}`]);
  // exactly REORDER_AFTER_MS later: "old" becomes the most recently used
  advance(1_000);
  store.take([slowRule], ["old"]);
  store.take([slowRule], ["c10"]);
  expect(store.size).toBe(9);
  expect(left(store, "old"), "kept: taken twice before").toBe(57);
  expect(left(store, "c1"), "evicted instead: starts fresh").toBe(59);
});
