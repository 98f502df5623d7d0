import { expect, test } from "bun:test";
import {
  type BucketSpec,
  MemoryRateLimiter,
  remaining,
  secondsToFull,
  secondsToNextToken,
} from "../../src/http/token-bucket.ts";

const ip = (id: string): BucketSpec => ({ name: "ip", id, limit: 60, windowMs: 60_000 });

function limiter(maxEntries?: number) {
  let now = 1_000_000;
  const store = new MemoryRateLimiter(() => now, maxEntries);
  return { store, advance: (ms: number) => (now += ms) };
}

test("a bucket starts full, loses one token per request and refills continuously", () => {
  const { store, advance } = limiter();
  const first = store.consume([ip("a")])[0];
  expect(first?.allowed).toBe(true);
  expect(first && remaining(first)).toBe(59);
  expect(first && secondsToFull(first)).toBe(1);
  for (let i = 0; i < 59; i++) store.consume([ip("a")]);
  const empty = store.consume([ip("a")])[0];
  expect(empty?.allowed).toBe(false);
  expect(empty && secondsToNextToken(empty)).toBe(1);
  expect(empty && secondsToFull(empty)).toBe(60);
  advance(30_000);
  const half = store.consume([ip("a")])[0];
  expect(half && remaining(half), "30 s refill 30 tokens, one is taken").toBe(29);
});

test("several buckets are taken from together or not at all", () => {
  const { store } = limiter();
  const burst: BucketSpec = { name: "burst", id: "k", limit: 2, windowMs: 1_000 };
  const key: BucketSpec = { name: "key", id: "k", limit: 600, windowMs: 60_000 };
  store.consume([key, burst]);
  store.consume([key, burst]);
  const refused = store.consume([key, burst]);
  expect(refused.map((r) => r.allowed)).toEqual([false, false]);
  expect(refused[0] && remaining(refused[0]), "the key bucket kept its token").toBe(598);
});

test("100,000 distinct addresses: memory stays bounded, and idle buckets are swept away", () => {
  const { store, advance } = limiter(50_000);
  for (let i = 0; i < 100_000; i++) {
    store.consume([ip(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)]);
  }
  expect(store.size).toBeLessThanOrEqual(50_000);
  expect(store.size).toBeGreaterThanOrEqual(45_000);
  // the newest addresses keep their state
  const last = store.consume([ip("10.1.134.159")])[0];
  expect(last && remaining(last)).toBe(58);
  advance(500);
  store.sweep();
  expect(store.size, "buckets still refilling are kept").toBeGreaterThanOrEqual(45_000);
  advance(1_500);
  store.sweep();
  expect(store.size, "full buckets are the same as new ones and go").toBe(0);
});

test("headers' arithmetic: whole seconds, reset never negative, retry at least 1", () => {
  const r = { name: "burst" as const, limit: 10, windowMs: 1_000, allowed: true };
  expect(secondsToFull({ ...r, tokens: 10 })).toBe(0);
  expect(secondsToFull({ ...r, tokens: 9.5 })).toBe(1);
  expect(secondsToNextToken({ ...r, tokens: 0.999 })).toBe(1);
  expect(secondsToNextToken({ ...r, tokens: 5 })).toBe(1);
  const slow = { name: "ip" as const, limit: 2, windowMs: 60_000, allowed: false };
  expect(secondsToNextToken({ ...slow, tokens: 0 })).toBe(30);
  expect(secondsToNextToken({ ...slow, tokens: 0.5 })).toBe(15);
});
