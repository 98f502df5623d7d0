import { afterEach, describe, expect, test } from "bun:test";
import { IpBlocks } from "../../src/limits/ip-blocks.ts";
import type { BucketRule } from "../../src/limits/token-bucket.ts";

/** src/limits/ip-blocks.ts: a client whose IP bucket refused is refused again, without a lookup, until its bucket has a token. */
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
