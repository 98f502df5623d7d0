import { expect, test } from "bun:test";
import type { Config } from "../../src/config.ts";
import { type ApiError, asApiError } from "../../src/errors.ts";
import { credentialSurface, graphqlSurface, surfaceOf } from "../../src/http/surfaces.ts";
import type { Headers, KeyHolder, QuotaOwner, Step, Verdict } from "../../src/limits/limits.ts";
import type { QuotaCheck, QuotaCounter } from "../../src/limits/quota-store.ts";
import { type Lifecycle, RateLimits } from "../../src/limits/rate-limits.ts";
import {
  type BucketRule,
  MemoryRateLimiter,
  type RateLimiter,
  type Taken,
} from "../../src/limits/token-bucket.ts";

/**
 * The limits' one question per request, asked directly (src/limits/rate-limits.ts, policies.ts)
 * on the surfaces the http floor declares (src/http/surfaces.ts): in-process buckets behind a
 * recording wrapper (synchronous, or answering with promises as Redis does), a fake quota
 * counter and an injected clock. Each call is checked for the buckets it draws, the headers it
 * writes and the verdict: status, body and Retry-After. docs/limits.md is the behaviour.
 *
 * Limits: 4 a minute per IP (a token every 15 s), 6 a minute per key (every 10 s), 10 a second
 * burst, so a few requests at one instant empty a bucket and every count is a whole number.
 */
const CONFIG: Config["rateLimit"] = { ipPerMin: 4, keyPerMin: 6, burstPerSec: 10 };
const IP = '"ip";q=4;w=60';
const KEY = '"key";q=6;w=60';
const BURST = '"burst";q=10;w=1';
const KEYLESS = `${IP}, ${BURST}`;
const KEYED_WITH_IP = `${IP}, ${KEY}, ${BURST}`;

const keyless = surfaceOf("/api/v1/x", false);
const keyed = surfaceOf("/api/v1/x", true);
const health = surfaceOf("/api/v1/health", true);
const interfaceB = surfaceOf("/api/projects", true);

/** the five rate-limit headers of the bucket closest to exhaustion */
const rate = (policy: string, name: string, limit: number, left: number, reset: number) => ({
  "x-ratelimit-limit": String(limit),
  "x-ratelimit-remaining": String(left),
  "x-ratelimit-reset": String(reset),
  "ratelimit-policy": policy,
  ratelimit: `"${name}";r=${left};t=${reset}`,
});
const quotaHeaders = (limit: number | string, used: number, left: number | string) => ({
  "x-quota-limit": String(limit),
  "x-quota-used": String(used),
  "x-quota-remaining": String(left),
});

class FakeQuota implements QuotaCounter {
  calls: { organizationId: string; limit: number | null; consume: boolean | undefined }[] = [];
  answer: QuotaCheck = { allowed: true, used: 1 };
  constructor(private readonly later = false) {}
  check(organizationId: string, limit: number | null, consume?: boolean) {
    this.calls.push({ organizationId, limit, consume });
    const answer = { ...this.answer };
    return this.later ? Promise.resolve(answer) : answer;
  }
  async sync() {}
}

interface Options {
  config?: Config["rateLimit"];
  /** the limiter answers with promises (as the Redis one does) */
  later?: boolean;
  quotaLater?: boolean;
  lifecycle?: Lifecycle;
}

function setup(options: Options = {}) {
  let now = 1_800_000_000_000;
  const clock = () => now;
  const memory = new MemoryRateLimiter(clock);
  const takes: { rules: string[]; ids: string[] }[] = [];
  const limiter: RateLimiter = {
    take(rules: readonly BucketRule[], ids: readonly string[]): Taken | Promise<Taken> {
      takes.push({ rules: rules.map((r) => r.name), ids: [...ids] });
      const taken = memory.take(rules, ids);
      return options.later ? Promise.resolve(taken) : taken;
    },
    sweep: () => memory.sweep(),
    get size() {
      return memory.size;
    },
  };
  const quota = new FakeQuota(options.quotaLater);
  const limits = new RateLimits(limiter, quota, options.config ?? CONFIG, clock, options.lifecycle);
  return {
    limits,
    quota,
    takes,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const owner = (plan: QuotaOwner["plan"], extra: Partial<QuotaOwner> = {}): QuotaOwner => ({
  id: `org-${plan}`,
  plan,
  dailyQuota: null,
  unlimitedQuota: false,
  ...extra,
});
const keyOf = (id: string, organization: QuotaOwner = owner("FREE")): KeyHolder => ({
  apiKey: { id },
  organization,
});

function expect429(verdict: Verdict | unknown, body: Record<string, unknown>, retryAfter: string) {
  const error = asApiError(verdict);
  expect(error?.status).toBe(429);
  expect(error?.body()).toEqual(body as never);
  expect(error?.headers).toEqual({ "retry-after": retryAfter });
}
const tooManyBody = (retryAfter: number) => ({ error: "Too many requests", retryAfter });
const settle = async (step: Step<Verdict>): Promise<ApiError | undefined> => await step;

test("the surfaces: interface A keyless or keyed, /health, interface B, /graphql, the rest", () => {
  expect(keyless).toBe(surfaceOf("/api/v1/alerts/ingest", true));
  expect(keyless.beforeRouting).toBe(true);
  expect(keyed.beforeRouting).toBe(false);
  expect({ ...keyed, quota: "peek" }).toEqual(health);
  expect(keyed.quota).toBe("count");
  expect(surfaceOf("/api/v1", true), "no /api/v1/ prefix: interface B").toBe(interfaceB);
  expect(surfaceOf("/graphql", true)).toBe(graphqlSurface);
  expect(surfaceOf("/graphql", false)).toBe(graphqlSurface);
  expect(surfaceOf("/install/x", false)).toBe(credentialSurface);
  expect(surfaceOf("/health/api/v1/", true)).toBe(credentialSurface);
  for (const surface of [interfaceB, graphqlSurface, credentialSurface]) {
    expect(surface.beforeRouting).toBe(false);
    expect(surface.anonymous).toEqual([]);
    expect(surface.failed).toEqual(["ip"]);
    expect(surface.quota).toBe("none");
  }
});

test("a keyless /api/v1 request draws its IP and the IP's burst", () => {
  const { limits, takes } = setup();
  const headers: Headers = {};
  expect(limits.limit(keyless, "10.0.0.1", undefined, headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip", "burst"], ids: ["10.0.0.1", "10.0.0.1"] }]);
  expect(headers).toEqual(rate(KEYLESS, "ip", 4, 3, 15));
  // its failed authentication later draws nothing more: drawn already
  const failed: Headers = {};
  expect(limits.failedAuth(keyless, "10.0.0.1", failed)).toBeUndefined();
  expect(failed).toEqual({});
  expect(takes).toHaveLength(1);
});

test("surfaces that draw nothing answer at once and write nothing", () => {
  const { limits, takes, quota } = setup();
  const headers: Headers = {};
  expect(
    limits.limit(keyless, "10.0.0.3", keyOf("k0"), headers),
    "no key buckets, no quota",
  ).toBeUndefined();
  expect(quota.calls).toEqual([]);
  for (const surface of [interfaceB, graphqlSurface, credentialSurface]) {
    expect(limits.limit(surface, "10.0.0.3", undefined, headers)).toBeUndefined();
  }
  expect(limits.limit(credentialSurface, "10.0.0.3", keyOf("k0"), headers)).toBeUndefined();
  expect(takes).toEqual([]);
  expect(headers).toEqual({});
});

test("an empty IP bucket: the per-IP 429, then the client is blocked before any lookup", () => {
  const { limits, takes, advance } = setup();
  for (let i = 0; i < 4; i++) {
    expect(limits.limit(keyless, "10.0.1.1", undefined, {})).toBeUndefined();
  }
  const headers: Headers = {};
  expect429(limits.limit(keyless, "10.0.1.1", undefined, headers), tooManyBody(15), "15");
  expect(headers).toEqual(rate(KEYLESS, "ip", 4, 0, 60));
  expect(takes).toHaveLength(5);

  const blocked: Headers = {};
  expect429(limits.blocked("10.0.1.1", blocked), tooManyBody(15), "15");
  expect(blocked).toEqual(rate(IP, "ip", 4, 0, 60));
  expect(takes, "blocked() draws nothing").toHaveLength(5);

  // another client is not concerned
  const other: Headers = {};
  expect(limits.blocked("10.0.1.2", other)).toBeUndefined();
  expect(limits.limit(keyless, "10.0.1.2", undefined, other)).toBeUndefined();
  expect(other).toEqual(rate(KEYLESS, "ip", 4, 3, 15));

  advance(14_999);
  const late: Headers = {};
  expect429(limits.blocked("10.0.1.1", late), tooManyBody(1), "1");
  expect(late["x-ratelimit-remaining"]).toBe("0");
  advance(1);
  const free: Headers = {};
  expect(limits.blocked("10.0.1.1", free)).toBeUndefined();
  expect(free).toEqual({});
  expect(limits.limit(keyless, "10.0.1.1", undefined, free)).toBeUndefined();
  expect(free).toEqual(rate(KEYLESS, "ip", 4, 0, 60));
});

test("an empty burst bucket refuses with Too many requests but does not block the client", () => {
  const { limits } = setup({ config: { ipPerMin: 4, keyPerMin: 6, burstPerSec: 2 } });
  limits.limit(keyless, "10.0.2.1", undefined, {});
  limits.limit(keyless, "10.0.2.1", undefined, {});
  const headers: Headers = {};
  expect429(limits.limit(keyless, "10.0.2.1", undefined, headers), tooManyBody(1), "1");
  expect(headers).toEqual(rate('"ip";q=4;w=60, "burst";q=2;w=1', "burst", 2, 0, 1));
  expect(limits.blocked("10.0.2.1", {})).toBeUndefined();
});

test("a keyed /api/v1 request draws IP, key and burst in one call, then the quota", () => {
  const { limits, takes, quota } = setup();
  const headers: Headers = {};
  expect(limits.limit(keyed, "10.0.3.1", keyOf("k1"), headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip", "key", "burst"], ids: ["10.0.3.1", "k1", "k1"] }]);
  expect(quota.calls).toEqual([{ organizationId: "org-FREE", limit: 1_000, consume: true }]);
  expect(headers).toEqual({
    ...rate(KEYED_WITH_IP, "ip", 4, 3, 15),
    ...quotaHeaders(1_000, 1, 999),
  });
});

test("the key's limit answers the key's 429; an empty IP speaks first and blocks the client", async () => {
  // 3 a minute per key (a token every 20 s), 4 per IP (every 15 s)
  const { limits, takes, quota } = setup({
    config: { ipPerMin: 4, keyPerMin: 3, burstPerSec: 10 },
  });
  const policy = '"ip";q=4;w=60, "key";q=3;w=60, "burst";q=10;w=1';
  const ask = (headers: Headers = {}) => limits.limit(keyed, "10.0.4.1", keyOf("k4"), headers);
  for (let i = 0; i < 3; i++) expect(ask()).toBeUndefined();
  expect(quota.calls).toHaveLength(3);
  // the key is empty, the IP holds exactly one token: the key's 429
  const headers: Headers = {};
  expect429(ask(headers), { error: "API key rate limit exceeded", retryAfter: 20 }, "20");
  expect(headers).toEqual(rate(policy, "key", 3, 0, 60));
  expect(quota.calls, "a refused request is not counted").toHaveLength(3);
  expect(limits.blocked("10.0.4.1", {}), "the client is not blocked").toBeUndefined();

  // the IP's last token goes to a keyless request; now both are empty: the IP's 429, whose
  // Retry-After is the IP's (15 s), not the key's (20 s)
  expect(limits.limit(keyless, "10.0.4.1", undefined, {})).toBeUndefined();
  const ipHeaders: Headers = {};
  expect429(ask(ipHeaders), tooManyBody(15), "15");
  expect(ipHeaders).toEqual(rate(policy, "ip", 4, 0, 60));
  expect(takes).toHaveLength(6);
  expect429(limits.blocked("10.0.4.1", {}), tooManyBody(15), "15");
});

test("an empty IP bucket with the key's tokens left answers the per-IP 429", () => {
  const { limits } = setup();
  for (let i = 0; i < 4; i++) limits.limit(keyless, "10.0.5.1", undefined, {});
  const headers: Headers = {};
  expect429(limits.limit(keyed, "10.0.5.1", keyOf("k5"), headers), tooManyBody(15), "15");
  expect(headers).toEqual(rate(KEYED_WITH_IP, "ip", 4, 0, 60));
  expect429(limits.blocked("10.0.5.1", {}), tooManyBody(15), "15");
});

test("/graphql with a key: the IP, the key's buckets and the plan limit, no quota", () => {
  const { limits, takes, quota } = setup();
  const headers: Headers = {};
  expect(limits.limit(graphqlSurface, "10.0.6.1", keyOf("k6"), headers)).toBeUndefined();
  expect(takes).toEqual([
    { rules: ["ip", "key", "burst", "org"], ids: ["10.0.6.1", "k6", "k6", "org-FREE"] },
  ]);
  expect(headers).toEqual(rate(`${KEYED_WITH_IP}, "org";q=100;w=60`, "ip", 4, 3, 15));
  // from many clients, the key's own limit: its 429
  for (let i = 0; i < 5; i++) limits.limit(graphqlSurface, `10.0.6.${10 + i}`, keyOf("k6"), {});
  const refused: Headers = {};
  expect429(
    limits.limit(graphqlSurface, "10.0.6.20", keyOf("k6"), refused),
    { error: "API key rate limit exceeded", retryAfter: 10 },
    "10",
  );
  expect(refused).toEqual(rate(`${KEYED_WITH_IP}, "org";q=100;w=60`, "key", 6, 0, 60));
  // ENTERPRISE: no organization bucket
  const enterprise: Headers = {};
  limits.limit(graphqlSurface, "10.0.6.30", keyOf("k6e", owner("ENTERPRISE")), enterprise);
  expect(takes.at(-1)).toEqual({ rules: ["ip", "key", "burst"], ids: ["10.0.6.30", "k6e", "k6e"] });
  expect(enterprise["ratelimit-policy"]).toBe(KEYED_WITH_IP);
  expect(quota.calls).toEqual([]);
});

test("/graphql: the organization's empty bucket answers the plan's 429 and blocks no client", () => {
  const { limits } = setup({ config: { ipPerMin: 1000, keyPerMin: 1000, burstPerSec: 1000 } });
  for (let i = 0; i < 100; i++) {
    expect(limits.limit(interfaceB, "10.0.7.1", keyOf(`b${i}`), {})).toBeUndefined();
  }
  const headers: Headers = {};
  expect429(
    limits.limit(graphqlSurface, "10.0.7.2", keyOf("g1"), headers),
    { error: "Rate limit exceeded", retryAfter: 1 },
    "1",
  );
  expect(headers.ratelimit).toBe('"org";r=0;t=60');
  expect(limits.blocked("10.0.7.2", {})).toBeUndefined();
});

test("an address the limits were not told counts as the client 'unknown' like any other", () => {
  const { limits, takes } = setup();
  for (let i = 0; i < 4; i++) limits.failedAuth(interfaceB, "unknown", {});
  expect429(limits.limit(keyed, "unknown", keyOf("k7"), {}), tooManyBody(15), "15");
  expect(takes.map((t) => t.ids[0])).toEqual(Array(5).fill("unknown"));
  expect429(limits.blocked("unknown", {}), tooManyBody(15), "15");
  expect(limits.blocked("unknown-not", {})).toBeUndefined();
});

test("each way an IP bucket empties without a key blocks the client", async () => {
  for (const [name, draw] of [
    ["keyless", (l: RateLimits) => l.limit(keyless, "10.0.8.1", undefined, {})],
    ["failed auth on interface B", (l: RateLimits) => l.failedAuth(interfaceB, "10.0.8.1", {})],
    ["failed keyed auth on /api/v1", (l: RateLimits) => l.failedAuth(keyed, "10.0.8.1", {})],
    ["never authenticated", (l: RateLimits) => l.limit(keyed, "10.0.8.1", undefined, {})],
  ] as const) {
    const { limits } = setup();
    for (let i = 0; i < 4; i++) expect(await settle(draw(limits)), name).toBeUndefined();
    expect(limits.blocked("10.0.8.1", {}), name).toBeUndefined();
    expect429(await settle(draw(limits)), tooManyBody(15), "15");
    expect429(limits.blocked("10.0.8.1", {}), tooManyBody(15), "15");
  }
});

test("a failed authentication: the IP bucket, with the IP's burst on /api/v1", () => {
  const { limits, takes } = setup();
  const headers: Headers = {};
  expect(limits.failedAuth(graphqlSurface, "10.0.9.1", headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip"], ids: ["10.0.9.1"] }]);
  expect(headers).toEqual(rate(IP, "ip", 4, 3, 15));
  const keyedHeaders: Headers = {};
  expect(limits.failedAuth(keyed, "10.0.9.2", keyedHeaders)).toBeUndefined();
  expect(takes[1]).toEqual({ rules: ["ip", "burst"], ids: ["10.0.9.2", "10.0.9.2"] });
  expect(keyedHeaders).toEqual(rate(KEYLESS, "ip", 4, 3, 15));
  // a keyed /api/v1 request that never reached authentication: its IP bucket alone
  const never: Headers = {};
  expect(limits.limit(keyed, "10.0.9.3", undefined, never)).toBeUndefined();
  expect(takes[2]).toEqual({ rules: ["ip"], ids: ["10.0.9.3"] });
  expect(never).toEqual(rate(IP, "ip", 4, 3, 15));
});

test("interface B: the organization's plan limit, none on ENTERPRISE, no quota", () => {
  const { limits, takes, quota } = setup();
  const headers: Headers = {};
  expect(limits.limit(interfaceB, "10.0.12.1", keyOf("b1"), headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["org"], ids: ["org-FREE"] }]);
  expect(headers).toEqual(rate('"org";q=100;w=60', "org", 100, 99, 1));
  const pro: Headers = {};
  limits.limit(interfaceB, "10.0.12.1", keyOf("b2", owner("PRO")), pro);
  expect(pro).toEqual(rate('"org";q=1000;w=60', "org", 1000, 999, 1));
  const enterprise: Headers = {};
  const unlimited = keyOf("b3", owner("ENTERPRISE"));
  expect(limits.limit(interfaceB, "10.0.12.1", unlimited, enterprise)).toBeUndefined();
  expect(enterprise).toEqual({});
  expect(takes).toHaveLength(2);
  for (let i = 0; i < 99; i++) limits.limit(interfaceB, "10.0.12.1", keyOf("b1"), {});
  const refused: Headers = {};
  expect429(
    limits.limit(interfaceB, "10.0.12.1", keyOf("b1"), refused),
    { error: "Rate limit exceeded", retryAfter: 1 },
    "1",
  );
  expect(refused).toEqual(rate('"org";q=100;w=60', "org", 100, 0, 60));
  expect(limits.blocked("10.0.12.1", {}), "the plan limit blocks no client").toBeUndefined();
  expect(quota.calls).toEqual([]);
});

test("the daily quota: counted, reported on /health, its 429, unlimited", () => {
  const { limits, quota } = setup();
  const key = keyOf("q1");
  limits.limit(health, "10.0.13.1", key, {});
  limits.limit(keyed, "10.0.13.1", key, {});
  expect(quota.calls.map((c) => c.consume)).toEqual([false, true]);
  quota.answer = { allowed: false, used: 1_000 };
  const headers: Headers = {};
  expect429(
    limits.limit(keyed, "10.0.13.2", key, headers),
    { error: "API quota exceeded", limit: 1_000, used: 1_000, window: "24h" },
    "3600",
  );
  expect(headers).toMatchObject(quotaHeaders(1_000, 1_000, 0));
  // unlimited: whatever the counter says, nothing is refused
  quota.answer = { allowed: false, used: 5 };
  const free = keyOf("q2", owner("FREE", { unlimitedQuota: true }));
  const unlimited: Headers = {};
  expect(limits.limit(keyed, "10.0.13.3", free, unlimited)).toBeUndefined();
  expect(unlimited).toMatchObject(quotaHeaders("unlimited", 5, "unlimited"));
  expect(quota.calls[3]).toEqual({ organizationId: "org-FREE", limit: null, consume: true });
});

test("with a limiter answering later (Redis), every call settles the same way", async () => {
  const { limits, takes, quota } = setup({ later: true });
  const keylessHeaders: Headers = {};
  const step = limits.limit(keyless, "10.1.0.1", undefined, keylessHeaders);
  expect(step).toBeInstanceOf(Promise);
  expect(await step).toBeUndefined();
  expect(keylessHeaders).toEqual(rate(KEYLESS, "ip", 4, 3, 15));

  const headers: Headers = {};
  const after = limits.limit(keyed, "10.1.0.2", keyOf("r1"), headers);
  expect(after).toBeInstanceOf(Promise);
  expect(quota.calls, "the quota waits for the buckets' answer").toEqual([]);
  expect(await after).toBeUndefined();
  expect(headers).toEqual({
    ...rate(KEYED_WITH_IP, "ip", 4, 3, 15),
    ...quotaHeaders(1000, 1, 999),
  });
  expect(quota.calls).toHaveLength(1);
  for (let i = 0; i < 5; i++) await limits.limit(graphqlSurface, `10.1.1.${i}`, keyOf("r1"), {});
  expect429(
    await limits.limit(keyed, "10.1.0.3", keyOf("r1"), {}),
    { error: "API key rate limit exceeded", retryAfter: 10 },
    "10",
  );
  expect(quota.calls, "a refused request is not counted").toHaveLength(1);

  const org: Headers = {};
  expect(
    await limits.limit(interfaceB, "10.1.0.2", keyOf("r2", owner("PRO")), org),
  ).toBeUndefined();
  expect(org).toEqual(rate('"org";q=1000;w=60', "org", 1000, 999, 1));

  const failedHeaders: Headers = {};
  expect(await limits.failedAuth(interfaceB, "10.1.0.4", failedHeaders)).toBeUndefined();
  expect(failedHeaders).toEqual(rate(IP, "ip", 4, 3, 15));
  const never: Headers = {};
  expect(await limits.limit(keyed, "10.1.0.4", undefined, never)).toBeUndefined();
  expect(never).toEqual(rate(IP, "ip", 4, 2, 30));
  await limits.failedAuth(interfaceB, "10.1.0.4", {});
  await limits.failedAuth(interfaceB, "10.1.0.4", {});
  expect429(await limits.failedAuth(interfaceB, "10.1.0.4", {}), tooManyBody(15), "15");
  expect429(await limits.limit(keyed, "10.1.0.4", undefined, {}), tooManyBody(15), "15");
  expect(takes.map((t) => t.rules.join("+"))).toEqual([
    "ip+burst",
    "ip+key+burst",
    ...Array(5).fill("ip+key+burst+org"),
    "ip+key+burst",
    "org",
    ...Array(5).fill("ip"),
    "ip",
  ]);
});

test("with a quota counter answering later, the quota's 429 is the verdict", async () => {
  const { limits, quota } = setup({ quotaLater: true });
  const headers: Headers = {};
  const after = limits.limit(keyed, "10.2.0.1", keyOf("l1"), headers);
  expect(after).toBeInstanceOf(Promise);
  expect(await after).toBeUndefined();
  expect(headers).toMatchObject(quotaHeaders(1000, 1, 999));
  quota.answer = { allowed: false, used: 1_001 };
  expect429(
    await limits.limit(keyed, "10.2.0.1", keyOf("l1"), {}),
    { error: "API quota exceeded", limit: 1_000, used: 1_001, window: "24h" },
    "3600",
  );
});

test("sweep drops refilled buckets; bucketCount, start and stop reach the parts", async () => {
  const { limits, advance } = setup();
  limits.limit(keyless, "10.3.0.1", undefined, {});
  expect(limits.bucketCount).toBe(2);
  advance(60_000);
  limits.sweep();
  expect(limits.bucketCount).toBe(0);

  const bare = new RateLimits(
    { take: () => ({ allowed: true, tokens: [4] }) },
    new FakeQuota(),
    CONFIG,
  );
  expect(bare.bucketCount).toBe(0);
  bare.sweep();
  await bare.start();
  await bare.stop();

  const events: unknown[] = [];
  const lifecycle: Lifecycle = {
    start: async (limits) => {
      events.push(["start", limits]);
    },
    stop: async () => {
      events.push("stop");
    },
  };
  const managed = setup({ lifecycle }).limits;
  await managed.start();
  await managed.stop();
  expect(events).toEqual([["start", managed], "stop"]);
});

test("the key's burst bucket refuses as the key's limit; a key with its last token left does not", () => {
  const { limits } = setup({ config: { ipPerMin: 1000, keyPerMin: 6, burstPerSec: 2 } });
  limits.limit(keyed, "10.4.0.1", keyOf("kb"), {});
  limits.limit(keyed, "10.4.0.1", keyOf("kb"), {});
  const headers: Headers = {};
  expect429(
    limits.limit(keyed, "10.4.0.1", keyOf("kb"), headers),
    { error: "API key rate limit exceeded", retryAfter: 1 },
    "1",
  );
  expect(headers.ratelimit).toBe('"burst";r=0;t=1');
  // a key holding exactly one token, its organization's bucket empty: the plan's 429
  const roomy = setup({ config: { ipPerMin: 1000, keyPerMin: 6, burstPerSec: 1000 } }).limits;
  for (let i = 0; i < 5; i++) roomy.limit(graphqlSurface, "10.4.0.2", keyOf("k-one"), {});
  for (let i = 0; i < 95; i++) roomy.limit(graphqlSurface, "10.4.0.3", keyOf(`k${i}`), {});
  expect429(
    roomy.limit(graphqlSurface, "10.4.0.4", keyOf("k-one"), {}),
    { error: "Rate limit exceeded", retryAfter: 1 },
    "1",
  );
});

test("a surface whose client buckets do not start with the IP's, or whose IP bucket is not first, is refused", () => {
  const { limits } = setup();
  const burstOnly = { anonymous: ["burst"], keyed: [], quota: "none", failed: [] } as const;
  expect(() => limits.limit(burstOnly, "10.5.0.1", undefined, {})).toThrow('start with "ip"');
  const ipLast = { anonymous: [], keyed: ["key", "ip"], quota: "none", failed: [] } as const;
  expect(() => limits.limit(ipLast, "10.5.0.1", keyOf("k"), {})).toThrow(
    "the IP bucket comes first",
  );
  const planFirst = {
    anonymous: [],
    keyed: ["plan", "key"],
    quota: "none",
    failed: ["ip"],
  } as const;
  const headers: Headers = {};
  expect(limits.limit(planFirst, "10.5.0.1", keyOf("k"), headers)).toBeUndefined();
  expect(headers["ratelimit-policy"]).toBe('"org";q=100;w=60, "key";q=6;w=60');
});
