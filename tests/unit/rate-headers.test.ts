import { expect, test } from "bun:test";
import {
  limitText,
  numberText,
  ratePolicy,
  writeRateHeaders,
} from "../../src/limits/rate-headers.ts";
import type { BucketRule } from "../../src/limits/token-bucket.ts";

const ip: BucketRule = { name: "ip", limit: 60, windowMs: 60_000 };
const key: BucketRule = { name: "key", limit: 600, windowMs: 60_000 };
const burst: BucketRule = { name: "burst", limit: 10, windowMs: 1_000 };

const headersFor = (rules: BucketRule[], tokens: number[]) => {
  const headers: Record<string, string | number> = {};
  writeRateHeaders(headers, ratePolicy(rules), tokens);
  return headers;
};

test("the bucket with the fewest requests left is reported, even when it refills sooner", () => {
  expect(headersFor([ip, burst], [10, 2])).toEqual({
    "x-ratelimit-limit": "10",
    "x-ratelimit-remaining": "2",
    "x-ratelimit-reset": "1",
    "ratelimit-policy": '"ip";q=60;w=60, "burst";q=10;w=1',
    ratelimit: '"burst";r=2;t=1',
  });
  // and when it comes first, a later bucket with more left never displaces it
  expect(headersFor([burst, ip], [2, 10]).ratelimit).toBe('"burst";r=2;t=1');
});

test("on a tie of requests left, the bucket slower to refill is reported, in either order", () => {
  // ip: 55 tokens to refill at 1/s → 55 s; key: 595 at 10/s → 60 s
  expect(headersFor([ip, key], [5, 5]).ratelimit).toBe('"key";r=5;t=60');
  expect(headersFor([key, ip], [5, 5]).ratelimit).toBe('"key";r=5;t=60');
  expect(headersFor([key, ip], [5, 5])["x-ratelimit-limit"]).toBe("600");
});

test("a full tie keeps the first bucket of the policy", () => {
  const twin: BucketRule = { name: "key", limit: 60, windowMs: 60_000 };
  expect(headersFor([ip, twin], [5, 5]).ratelimit).toBe('"ip";r=5;t=55');
});

test("numbers outside the cached small range are still written exactly", () => {
  expect(numberText(0)).toBe("0");
  expect(numberText(1023)).toBe("1023");
  expect(numberText(1024)).toBe("1024");
  expect(numberText(100_000)).toBe("100000");
  expect(numberText(-1)).toBe("-1");
  expect(numberText(2.5)).toBe("2.5");
});

test("limit texts (cached per value) are the limits written out", () => {
  expect(limitText(5)).toBe("5");
  expect(limitText(5)).toBe("5");
  expect(limitText(100_000)).toBe("100000");
});

test("a policy writing the same counts again writes the same text; new counts replace it", () => {
  const policy = ratePolicy([ip, burst]);
  const write = (tokens: number[]) => {
    const headers: Record<string, string | number> = {};
    writeRateHeaders(headers, policy, tokens);
    return headers;
  };
  expect(write([10, 2]).ratelimit).toBe('"burst";r=2;t=1');
  expect(write([10, 2]).ratelimit, "the same counts again").toBe('"burst";r=2;t=1');
  expect(write([10, 1]), "one fewer left: every count field moves").toEqual({
    "x-ratelimit-limit": "10",
    "x-ratelimit-remaining": "1",
    "x-ratelimit-reset": "1",
    "ratelimit-policy": '"ip";q=60;w=60, "burst";q=10;w=1',
    ratelimit: '"burst";r=1;t=1',
  });
  expect(write([1, 9]).ratelimit, "another bucket is the closest now").toBe('"ip";r=1;t=59');
  expect(write([10, 1]).ratelimit, "and back").toBe('"burst";r=1;t=1');
});

test("a count that moves alone is written anew: same requests left with a new reset, and back", () => {
  // 10 requests a minute: one token every 6 s, so the reset moves while the count stays
  const slow: BucketRule = { name: "ip", limit: 10, windowMs: 60_000 };
  const policy = ratePolicy([slow]);
  const write = (tokens: number) => {
    const headers: Record<string, string | number> = {};
    writeRateHeaders(headers, policy, [tokens]);
    return [headers["x-ratelimit-remaining"], headers["x-ratelimit-reset"], headers.ratelimit];
  };
  expect(write(5)).toEqual(["5", "30", '"ip";r=5;t=30']);
  expect(write(5.5), "5 left, the reset 3 s sooner").toEqual(["5", "27", '"ip";r=5;t=27']);
  expect(write(4.5), "one fewer left, the reset later").toEqual(["4", "33", '"ip";r=4;t=33']);
  expect(write(4.9), "4 left, the reset sooner").toEqual(["4", "31", '"ip";r=4;t=31']);
});
