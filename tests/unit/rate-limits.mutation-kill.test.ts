import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import type { Config } from "../../src/config.ts";
import { type ApiError, asApiError, notFound, unauthenticated } from "../../src/errors.ts";
import { rateLimitPlugin } from "../../src/http/rate-limit.ts";
import {
  type Caller,
  type Headers,
  type KeyHolder,
  type Limits,
  noLimits,
  type QuotaOwner,
} from "../../src/limits/limits.ts";
import type { QuotaCheck, QuotaCounter } from "../../src/limits/quota-store.ts";
import { type Lifecycle, RateLimits } from "../../src/limits/rate-limits.ts";
import { quotaExceeded, tooMany } from "../../src/limits/refusals.ts";
import {
  type BucketRule,
  MemoryRateLimiter,
  type RateLimiter,
  type Taken,
} from "../../src/limits/token-bucket.ts";

/**
 * The rate-limit engine driven directly (issue 20, mutation testing of src/limits/rate-limits.ts,
 * policies.ts and refusals.ts): in-process buckets behind a recording wrapper (synchronous, or
 * answering with promises as Redis does), a fake quota counter and an injected clock. Each step
 * gets plain facts (a caller, a path, a key) and is checked for the buckets it draws, the
 * headers it writes and the 429 it answers or throws: status, body and Retry-After.
 * At the end, src/http/rate-limit.ts (the Elysia adapter in front of it) with a fake Limits.
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
const KEYED = `${KEY}, ${BURST}`;

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
const at = (clientIp: string | undefined, flags: Partial<Caller> = {}): Caller => ({
  clientIp,
  ...flags,
});

/** The error a step throws or rejects with (a 429 is expected). */
async function thrown(step: () => unknown): Promise<ApiError> {
  try {
    await step();
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected the step to throw");
}

function expect429(refusal: unknown, body: Record<string, unknown>, retryAfter: string) {
  const error = asApiError(refusal);
  expect(error?.status).toBe(429);
  expect(error?.body()).toEqual(body as never);
  expect(error?.headers).toEqual({ "retry-after": retryAfter });
}
const tooManyBody = (retryAfter: number) => ({ error: "Too many requests", retryAfter });

test("a keyless /api/v1 request draws its IP and the IP's burst before routing", () => {
  const { limits, takes } = setup();
  const caller = at("10.0.0.1");
  const headers: Headers = {};
  expect(limits.beforeAuth(caller, "/api/v1/whoami", false, headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip", "burst"], ids: ["10.0.0.1", "10.0.0.1"] }]);
  expect(headers).toEqual(rate(KEYLESS, "ip", 4, 3, 15));
  expect(caller.ipDrawn).toBe(true);
  expect(caller.ipBucketPending).toBeUndefined();
  // ingest never has a key of its own: drawn at once even with a credential
  const ingest = at("10.0.0.2");
  const ingestHeaders: Headers = {};
  expect(limits.beforeAuth(ingest, "/api/v1/alerts/ingest", true, ingestHeaders)).toBeUndefined();
  expect(takes[1]).toEqual({ rules: ["ip", "burst"], ids: ["10.0.0.2", "10.0.0.2"] });
  expect(ingestHeaders).toEqual(rate(KEYLESS, "ip", 4, 3, 15));
  expect(ingest.ipDrawn).toBe(true);
  expect(ingest.ipBucketPending).toBeUndefined();
});

test("outside /api/v1, or without a caller, nothing is drawn before authentication", () => {
  const { limits, takes } = setup();
  const headers: Headers = {};
  expect(limits.beforeAuth(undefined, "/api/v1/whoami", false, headers)).toBeUndefined();
  for (const path of ["/api/projects", "/graphql", "/api/v1", "/health/api/v1/"]) {
    const caller = at("10.0.0.3");
    expect(limits.beforeAuth(caller, path, false, headers)).toBeUndefined();
    expect(caller).toEqual({ clientIp: "10.0.0.3" });
  }
  expect(takes).toEqual([]);
  expect(headers).toEqual({});
});

test("an empty IP bucket: the per-IP 429, then the address is refused before any lookup", () => {
  const { limits, takes, advance } = setup();
  for (let i = 0; i < 4; i++) {
    expect(limits.beforeAuth(at("10.0.1.1"), "/api/v1/x", false, {})).toBeUndefined();
  }
  const headers: Headers = {};
  const refused = limits.beforeAuth(at("10.0.1.1"), "/api/v1/x", false, headers);
  expect429(refused, tooManyBody(15), "15");
  expect(headers).toEqual(rate(KEYLESS, "ip", 4, 0, 60));
  expect(takes).toHaveLength(5);

  // noted: a keyed request from that address is refused before routing, and draws nothing
  const keyed = at("10.0.1.1");
  const keyedHeaders: Headers = {};
  const again = limits.beforeAuth(keyed, "/api/v1/x", true, keyedHeaders);
  expect429(again, tooManyBody(15), "15");
  expect(keyedHeaders).toEqual(rate(IP, "ip", 4, 0, 60));
  expect(keyed.ipBucketPending).toBeUndefined();
  expect(takes).toHaveLength(5);

  // another address is not concerned
  const other: Headers = {};
  expect(limits.refuseBlocked(at("10.0.1.2"), other)).toBeUndefined();
  expect(limits.beforeAuth(at("10.0.1.2"), "/api/v1/x", false, other)).toBeUndefined();
  expect(other).toEqual(rate(KEYLESS, "ip", 4, 3, 15));

  advance(14_999);
  const late: Headers = {};
  expect429(limits.refuseBlocked(at("10.0.1.1"), late), tooManyBody(1), "1");
  expect(late["x-ratelimit-remaining"]).toBe("0");
  advance(1);
  const free: Headers = {};
  expect(limits.refuseBlocked(at("10.0.1.1"), free)).toBeUndefined();
  expect(free).toEqual({});
  expect(limits.beforeAuth(at("10.0.1.1"), "/api/v1/x", false, free)).toBeUndefined();
  expect(free).toEqual(rate(KEYLESS, "ip", 4, 0, 60));
});

test("an empty burst bucket refuses with Too many requests but does not block the address", () => {
  const { limits } = setup({ config: { ipPerMin: 4, keyPerMin: 6, burstPerSec: 2 } });
  limits.beforeAuth(at("10.0.2.1"), "/api/v1/x", false, {});
  limits.beforeAuth(at("10.0.2.1"), "/api/v1/x", false, {});
  const headers: Headers = {};
  expect429(limits.beforeAuth(at("10.0.2.1"), "/api/v1/x", false, headers), tooManyBody(1), "1");
  expect(headers).toEqual(rate('"ip";q=4;w=60, "burst";q=2;w=1', "burst", 2, 0, 1));
  expect(limits.refuseBlocked(at("10.0.2.1"), {})).toBeUndefined();
});

test("a keyed /api/v1 request draws IP, key and burst together after authentication", () => {
  const { limits, takes, quota } = setup();
  const caller = at("10.0.3.1");
  const headers: Headers = {};
  expect(limits.beforeAuth(caller, "/api/v1/whoami", true, headers)).toBeUndefined();
  expect(caller.ipBucketPending).toBe(true);
  expect(caller.ipDrawn).toBeUndefined();
  expect(takes).toEqual([]);
  expect(headers).toEqual({});
  expect(limits.afterAuth(caller, "/api/v1/whoami", keyOf("k1"), headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip", "key", "burst"], ids: ["10.0.3.1", "k1", "k1"] }]);
  expect(caller.ipBucketPending).toBe(false);
  expect(quota.calls).toEqual([{ organizationId: "org-FREE", limit: 1_000, consume: true }]);
  expect(headers).toEqual({
    ...rate(KEYED_WITH_IP, "ip", 4, 3, 15),
    ...quotaHeaders(1_000, 1, 999),
  });
  // nothing pending any more: an error after authentication draws nothing else
  expect(limits.beforeAuthError(caller, {})).toBeUndefined();
  expect(takes).toHaveLength(1);
});

test("the key's limit answers the key's 429; an empty IP speaks first and blocks the address", async () => {
  // 3 a minute per key (a token every 20 s), 4 per IP (every 15 s)
  const { limits, takes, quota } = setup({
    config: { ipPerMin: 4, keyPerMin: 3, burstPerSec: 10 },
  });
  const policy = '"ip";q=4;w=60, "key";q=3;w=60, "burst";q=10;w=1';
  const keyed = (headers: Headers = {}) => {
    const caller = at("10.0.4.1");
    limits.beforeAuth(caller, "/api/v1/x", true, headers);
    return limits.afterAuth(caller, "/api/v1/x", keyOf("k4"), headers);
  };
  for (let i = 0; i < 3; i++) expect(keyed()).toBeUndefined();
  expect(quota.calls).toHaveLength(3);
  // the key is empty, the IP holds exactly one token: the key's 429
  const headers: Headers = {};
  const byKey = await thrown(() => keyed(headers));
  expect429(byKey, { error: "API key rate limit exceeded", retryAfter: 20 }, "20");
  expect(headers).toEqual(rate(policy, "key", 3, 0, 60));
  expect(quota.calls, "a refused request is not counted").toHaveLength(3);
  expect(limits.refuseBlocked(at("10.0.4.1"), {}), "the address is not blocked").toBeUndefined();

  // the IP's last token goes to a keyless request; now both are empty: the IP's 429, whose
  // Retry-After is the IP's (15 s), not the key's (20 s)
  expect(limits.beforeAuth(at("10.0.4.1"), "/api/v1/x", false, {})).toBeUndefined();
  const ipHeaders: Headers = {};
  const byIp = await thrown(() => keyed(ipHeaders));
  expect429(byIp, tooManyBody(15), "15");
  expect(ipHeaders).toEqual(rate(policy, "ip", 4, 0, 60));
  expect(takes).toHaveLength(6);
  expect429(limits.refuseBlocked(at("10.0.4.1"), {}), tooManyBody(15), "15");
});

test("an empty IP bucket with the key's tokens left answers the per-IP 429", async () => {
  const { limits } = setup();
  for (let i = 0; i < 4; i++) limits.beforeAuth(at("10.0.5.1"), "/api/v1/x", false, {});
  const caller = at("10.0.5.1", { ipBucketPending: true });
  const headers: Headers = {};
  expect429(
    await thrown(() => limits.afterAuth(caller, "/api/v1/x", keyOf("k5"), headers)),
    tooManyBody(15),
    "15",
  );
  expect(headers).toEqual(rate(KEYED_WITH_IP, "ip", 4, 0, 60));
  expect429(limits.refuseBlocked(at("10.0.5.1"), {}), tooManyBody(15), "15");
});

test("/graphql with a key draws the key's buckets only; its 429 is the key's", async () => {
  const { limits, takes, quota } = setup();
  const headers: Headers = {};
  expect(limits.graphql(at("10.0.6.1"), keyOf("k6"), headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["key", "burst"], ids: ["k6", "k6"] }]);
  expect(headers).toEqual(rate(KEYED, "key", 6, 5, 10));
  // no caller at all (a test client): the same buckets
  for (let i = 0; i < 5; i++) expect(limits.graphql(undefined, keyOf("k6"), {})).toBeUndefined();
  const refused: Headers = {};
  expect429(
    await thrown(() => limits.graphql(undefined, keyOf("k6"), refused)),
    { error: "API key rate limit exceeded", retryAfter: 10 },
    "10",
  );
  expect(refused).toEqual(rate(KEYED, "key", 6, 0, 60));
  expect(quota.calls).toEqual([]);
});

test("a caller without an address counts as the address 'unknown' everywhere", async () => {
  const { limits, takes } = setup();
  limits.beforeAuth(at(undefined), "/api/v1/x", false, {});
  limits.failedAuth(at(undefined), {});
  limits.failedAuth(undefined, {});
  limits.beforeAuthError(at(undefined, { ipBucketPending: true }), {});
  await thrown(() =>
    limits.afterAuth(at(undefined, { ipBucketPending: true }), "/api/v1/x", keyOf("k7"), {}),
  );
  expect(takes).toEqual([
    { rules: ["ip", "burst"], ids: ["unknown", "unknown"] },
    { rules: ["ip"], ids: ["unknown"] },
    { rules: ["ip"], ids: ["unknown"] },
    { rules: ["ip"], ids: ["unknown"] },
    { rules: ["ip", "key", "burst"], ids: ["unknown", "k7", "k7"] },
  ]);
  // the fifth request found the bucket empty: it is noted for 'unknown', with or without a caller
  expect429(limits.refuseBlocked(at(undefined), {}), tooManyBody(15), "15");
  expect429(limits.refuseBlocked(undefined, {}), tooManyBody(15), "15");
  expect(limits.refuseBlocked(at("unknown-not"), {})).toBeUndefined();
});

test("each way an IP bucket empties without a key notes the address, keyed or not", async () => {
  for (const [name, draw] of [
    ["keyless", (l: RateLimits, c: Caller) => l.beforeAuth(c, "/api/v1/x", false, {})],
    ["failed auth", (l: RateLimits, c: Caller) => l.failedAuth(c, {})],
    [
      "failed keyed auth",
      (l: RateLimits, c: Caller) => l.failedAuth({ ...c, ipBucketPending: true }, {}),
    ],
    [
      "error before auth",
      (l: RateLimits, c: Caller) => l.beforeAuthError({ ...c, ipBucketPending: true }, {}),
    ],
  ] as const) {
    const { limits } = setup();
    for (let i = 0; i < 4; i++) await draw(limits, at("10.0.8.1"));
    expect(limits.refuseBlocked(at("10.0.8.1"), {}), name).toBeUndefined();
    const refused = await thrown(async () => {
      const step = await draw(limits, at("10.0.8.1"));
      if (step) throw step;
    });
    expect429(refused, tooManyBody(15), "15");
    expect429(limits.refuseBlocked(at("10.0.8.1"), {}), tooManyBody(15), "15");
  }
});

test("a failed authentication takes one token from the IP bucket, once per request", () => {
  const { limits, takes } = setup();
  const caller = at("10.0.9.1");
  const headers: Headers = {};
  expect(limits.failedAuth(caller, headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip"], ids: ["10.0.9.1"] }]);
  expect(headers).toEqual(rate(IP, "ip", 4, 3, 15));
  expect(caller).toEqual({ clientIp: "10.0.9.1", ipBucketPending: false, ipDrawn: true });
  // the same request again (drawn already): nothing
  const again: Headers = {};
  expect(limits.failedAuth(caller, again)).toBeUndefined();
  expect(again).toEqual({});
  expect(takes).toHaveLength(1);
  // a keyed /api/v1 request whose key is refused draws as a keyless one (IP + the IP's burst)
  const keyed = at("10.0.9.2", { ipBucketPending: true });
  const keyedHeaders: Headers = {};
  expect(limits.failedAuth(keyed, keyedHeaders)).toBeUndefined();
  expect(takes[1]).toEqual({ rules: ["ip", "burst"], ids: ["10.0.9.2", "10.0.9.2"] });
  expect(keyedHeaders).toEqual(rate(KEYLESS, "ip", 4, 3, 15));
  expect(keyed).toEqual({ clientIp: "10.0.9.2", ipBucketPending: false, ipDrawn: true });
});

test("throttle: a refused credential counts, another error or a success does not", async () => {
  const { limits, takes } = setup();
  const headers: Headers = {};
  expect(await limits.throttle(at("10.0.10.1"), headers, async () => "ok")).toBe("ok");
  const missing = notFound();
  expect(
    await thrown(() =>
      limits.throttle(at("10.0.10.1"), headers, async () => {
        throw missing;
      }),
    ),
  ).toBe(missing);
  expect(takes).toEqual([]);
  expect(headers).toEqual({});

  const invalid = unauthenticated("Invalid API key");
  const caller = at("10.0.10.1");
  const failing = async () => {
    throw invalid;
  };
  expect(await thrown(() => limits.throttle(caller, headers, failing))).toBe(invalid);
  expect(takes).toEqual([{ rules: ["ip"], ids: ["10.0.10.1"] }]);
  expect(headers).toEqual(rate(IP, "ip", 4, 3, 15));
  expect(caller.ipDrawn).toBe(true);
  // install links count their 404 too
  const link = (error: unknown) => asApiError(error)?.status === 404;
  expect(
    await thrown(() =>
      limits.throttle(
        at("10.0.10.1"),
        {},
        async () => {
          throw missing;
        },
        link,
      ),
    ),
  ).toBe(missing);
  expect(takes).toHaveLength(2);
  await thrown(() => limits.throttle(at("10.0.10.1"), {}, failing));
  await thrown(() => limits.throttle(at("10.0.10.1"), {}, failing));
  // the fifth failure finds the bucket empty: the 429 instead of the 401
  const fifth: Headers = {};
  expect429(
    await thrown(() => limits.throttle(at("10.0.10.1"), fifth, failing)),
    tooManyBody(15),
    "15",
  );
  expect(fifth).toEqual(rate(IP, "ip", 4, 0, 60));
  // and the next attempt is refused before the credential is looked up
  let looked = 0;
  const blocked: Headers = {};
  const refused = await thrown(() =>
    limits.throttle(at("10.0.10.1"), blocked, async () => {
      looked++;
      return "ok";
    }),
  );
  expect429(refused, tooManyBody(15), "15");
  expect(looked).toBe(0);
  expect(blocked).toEqual(rate(IP, "ip", 4, 0, 60));
  expect(takes).toHaveLength(5);
});

test("an error before authentication draws the pending IP bucket, once", () => {
  const { limits, takes } = setup();
  expect(limits.beforeAuthError(undefined, {})).toBeUndefined();
  expect(limits.beforeAuthError(at("10.0.11.1"), {})).toBeUndefined();
  expect(limits.beforeAuthError(at("10.0.11.1", { ipBucketPending: false }), {})).toBeUndefined();
  expect(takes).toEqual([]);
  const caller = at("10.0.11.1", { ipBucketPending: true });
  const headers: Headers = {};
  expect(limits.beforeAuthError(caller, headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["ip"], ids: ["10.0.11.1"] }]);
  expect(headers).toEqual(rate(IP, "ip", 4, 3, 15));
  expect(caller.ipBucketPending).toBe(false);
  expect(limits.beforeAuthError(caller, {})).toBeUndefined();
  expect(takes).toHaveLength(1);
});

test("interface B: the organization's plan limit, none on ENTERPRISE", async () => {
  const { limits, takes, quota } = setup();
  const caller = at("10.0.12.1");
  const headers: Headers = {};
  expect(limits.afterAuth(caller, "/api/projects", keyOf("b1"), headers)).toBeUndefined();
  expect(takes).toEqual([{ rules: ["org"], ids: ["org-FREE"] }]);
  expect(headers).toEqual(rate('"org";q=100;w=60', "org", 100, 99, 1));
  expect(caller).toEqual({ clientIp: "10.0.12.1" });
  const pro: Headers = {};
  limits.afterAuth(caller, "/api/projects", keyOf("b2", owner("PRO")), pro);
  expect(pro).toEqual(rate('"org";q=1000;w=60', "org", 1000, 999, 1));
  const enterprise: Headers = {};
  const unlimited = keyOf("b3", owner("ENTERPRISE"));
  expect(limits.afterAuth(caller, "/api/projects", unlimited, enterprise)).toBeUndefined();
  expect(enterprise).toEqual({});
  // /graphql is limited by graphql(), not here
  expect(limits.afterAuth(caller, "/graphql", keyOf("b1"), enterprise)).toBeUndefined();
  expect(enterprise).toEqual({});
  expect(takes).toHaveLength(2);
  for (let i = 0; i < 99; i++) limits.afterAuth(caller, "/api/projects", keyOf("b1"), {});
  const refused: Headers = {};
  expect429(
    await thrown(() => limits.afterAuth(caller, "/api/projects", keyOf("b1"), refused)),
    { error: "Rate limit exceeded", retryAfter: 1 },
    "1",
  );
  expect(refused).toEqual(rate('"org";q=100;w=60', "org", 100, 0, 60));
  expect(limits.refuseBlocked(caller, {}), "the plan limit blocks no address").toBeUndefined();
  expect(quota.calls).toEqual([]);
});

test("the daily quota: counted, reported on /health, its 429, unlimited", async () => {
  const { limits, quota } = setup();
  const key = keyOf("q1");
  limits.afterAuth(at("10.0.13.1"), "/api/v1/health", key, {});
  limits.afterAuth(at("10.0.13.1"), "/api/v1/x", key, {});
  expect(quota.calls.map((c) => c.consume)).toEqual([false, true]);
  quota.answer = { allowed: false, used: 1_000 };
  const headers: Headers = {};
  expect429(
    await thrown(() => limits.afterAuth(at("10.0.13.2"), "/api/v1/x", key, headers)),
    { error: "API quota exceeded", limit: 1_000, used: 1_000, window: "24h" },
    "3600",
  );
  expect(headers).toMatchObject(quotaHeaders(1_000, 1_000, 0));
  // unlimited: whatever the counter says, nothing is refused
  quota.answer = { allowed: false, used: 5 };
  const free = keyOf("q2", owner("FREE", { unlimitedQuota: true }));
  const unlimited: Headers = {};
  expect(limits.afterAuth(at("10.0.13.3"), "/api/v1/x", free, unlimited)).toBeUndefined();
  expect(unlimited).toMatchObject(quotaHeaders("unlimited", 5, "unlimited"));
  expect(quota.calls[3]).toEqual({ organizationId: "org-FREE", limit: null, consume: true });
});

test("with a limiter answering later (Redis), every step settles the same way", async () => {
  const { limits, takes, quota } = setup({ later: true });
  const keyless: Headers = {};
  const step = limits.beforeAuth(at("10.1.0.1"), "/api/v1/x", false, keyless);
  expect(step).toBeInstanceOf(Promise);
  expect(await step).toBeUndefined();
  expect(keyless).toEqual(rate(KEYLESS, "ip", 4, 3, 15));

  const caller = at("10.1.0.2", { ipBucketPending: true });
  const headers: Headers = {};
  const after = limits.afterAuth(caller, "/api/v1/x", keyOf("r1"), headers);
  expect(after).toBeInstanceOf(Promise);
  expect(quota.calls, "the quota waits for the buckets' answer").toEqual([]);
  await after;
  expect(headers).toEqual({
    ...rate(KEYED_WITH_IP, "ip", 4, 3, 15),
    ...quotaHeaders(1000, 1, 999),
  });
  expect(quota.calls).toHaveLength(1);

  const graphql: Headers = {};
  await limits.graphql(undefined, keyOf("r1"), graphql);
  expect(graphql).toEqual(rate(KEYED, "key", 6, 4, 20));
  for (let i = 0; i < 4; i++) await limits.graphql(undefined, keyOf("r1"), {});
  const refused = limits.afterAuth(at("10.1.0.3"), "/api/v1/x", keyOf("r1"), {});
  expect429(
    await thrown(() => refused),
    { error: "API key rate limit exceeded", retryAfter: 10 },
    "10",
  );
  expect(quota.calls, "a refused request is not counted").toHaveLength(1);

  const org: Headers = {};
  await limits.afterAuth(caller, "/api/projects", keyOf("r2"), org);
  expect(org).toEqual(rate('"org";q=100;w=60', "org", 100, 99, 1));

  const failed = at("10.1.0.4");
  const failedHeaders: Headers = {};
  expect(await limits.failedAuth(failed, failedHeaders)).toBeUndefined();
  expect(failed.ipDrawn).toBe(true);
  expect(failedHeaders).toEqual(rate(IP, "ip", 4, 3, 15));
  const pending: Headers = {};
  expect(
    await limits.beforeAuthError(at("10.1.0.4", { ipBucketPending: true }), pending),
  ).toBeUndefined();
  expect(pending).toEqual(rate(IP, "ip", 4, 2, 30));
  await limits.failedAuth(at("10.1.0.4"), {});
  await limits.failedAuth(at("10.1.0.4"), {});
  expect429(await thrown(() => limits.failedAuth(at("10.1.0.4"), {})), tooManyBody(15), "15");
  expect429(
    await limits.beforeAuthError(at("10.1.0.4", { ipBucketPending: true }), {}),
    tooManyBody(15),
    "15",
  );
  expect(takes.map((t) => t.rules.join("+"))).toEqual([
    "ip+burst",
    "ip+key+burst",
    ...Array(5).fill("key+burst"),
    "key+burst",
    "org",
    ...Array(5).fill("ip"),
    "ip",
  ]);
});

test("with a quota counter answering later, the quota's 429 is a rejection", async () => {
  const { limits, quota } = setup({ quotaLater: true });
  const headers: Headers = {};
  const after = limits.afterAuth(at("10.2.0.1"), "/api/v1/x", keyOf("l1"), headers);
  expect(after).toBeInstanceOf(Promise);
  await after;
  expect(headers).toMatchObject(quotaHeaders(1000, 1, 999));
  quota.answer = { allowed: false, used: 1_001 };
  expect429(
    await thrown(() => limits.afterAuth(at("10.2.0.1"), "/api/v1/x", keyOf("l1"), {})),
    { error: "API quota exceeded", limit: 1_000, used: 1_001, window: "24h" },
    "3600",
  );
});

test("sweep drops refilled buckets; bucketCount, start and stop reach the parts", async () => {
  const { limits, advance } = setup();
  limits.beforeAuth(at("10.3.0.1"), "/api/v1/x", false, {});
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

/**
 * src/http/rate-limit.ts, the Elysia adapter: it hands the limits the path and whether a
 * credential came, and turns a refusal into the answer, before routing and after an error or a
 * handler that never authenticated. A fake Limits stands behind it.
 */
function adapted(overrides: Partial<Limits>) {
  const seen: { path: string; hasCredential: boolean }[] = [];
  let handled = 0;
  const limits: Limits = {
    ...noLimits,
    beforeAuth: (_caller, path, hasCredential) => {
      seen.push({ path, hasCredential });
      return undefined;
    },
    ...overrides,
  };
  const app = new Elysia()
    .use(rateLimitPlugin(limits))
    .get("/api/v1/ok", () => {
      handled++;
      return { ok: true };
    })
    .get("/api/v1/boom", () => {
      handled++;
      throw new Error("boom");
    });
  const call = async (path: string, headers: Record<string, string> = {}) => {
    const response = await app.handle(new Request(`http://localhost${path}`, { headers }));
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  return { call, seen, handled: () => handled };
}

const ipRefusal = () =>
  tooMany("Too many requests", [{ name: "ip", limit: 4, windowMs: 60_000 }], [0]);
const refusing = (headers: Headers) => {
  headers["x-ratelimit-remaining"] = "0";
  return ipRefusal();
};

test("adapter: the facts go to beforeAuth; its refusal is the answer before routing", async () => {
  const open = adapted({});
  expect((await open.call("/api/v1/ok?x=1")).status).toBe(200);
  await open.call("/api/v1/ok", { authorization: "Bearer k" });
  expect(open.seen).toEqual([
    { path: "/api/v1/ok", hasCredential: false },
    { path: "/api/v1/ok", hasCredential: true },
  ]);
  expect(open.handled()).toBe(2);
  for (const later of [false, true]) {
    const closed = adapted({
      beforeAuth: (_c, _p, _k, headers) =>
        later ? Promise.resolve(refusing(headers)) : refusing(headers),
    });
    const answer = await closed.call("/api/v1/ok");
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.text)).toEqual({ error: "Too many requests", retryAfter: 15 });
    expect(answer.headers.get("retry-after")).toBe("15");
    expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(closed.handled()).toBe(0);
    const allowed = adapted({ beforeAuth: () => (later ? Promise.resolve(undefined) : undefined) });
    expect((await allowed.call("/api/v1/ok")).status).toBe(200);
    expect(allowed.handled()).toBe(1);
  }
});

test("adapter: after an error or an unauthenticated handler, the pending IP draw may refuse", async () => {
  for (const later of [false, true]) {
    const settled: string[] = [];
    const closed = adapted({
      beforeAuthError: (_caller, headers) => {
        settled.push("settled");
        return later ? Promise.resolve(refusing(headers)) : refusing(headers);
      },
    });
    for (const path of ["/api/v1/boom", "/api/v1/ok", "/api/v1/missing"]) {
      const answer = await closed.call(path);
      expect(answer.status, path).toBe(429);
      expect(JSON.parse(answer.text)).toEqual({ error: "Too many requests", retryAfter: 15 });
      expect(answer.headers.get("retry-after")).toBe("15");
      expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    expect(settled).toEqual(["settled", "settled", "settled"]);
    const open = adapted({
      beforeAuthError: () => (later ? Promise.resolve(undefined) : undefined),
    });
    const ok = await open.call("/api/v1/ok");
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ ok: true });
    expect((await open.call("/api/v1/boom")).status).not.toBe(429);
    expect((await open.call("/api/v1/missing")).status).toBe(404);
  }
});

test("adapter: used twice in one app (a named plugin), a request is still limited once", async () => {
  let drawn = 0;
  const limits: Limits = {
    ...noLimits,
    beforeAuth: () => {
      drawn++;
      return undefined;
    },
  };
  const app = new Elysia()
    .use(rateLimitPlugin(limits))
    .use(rateLimitPlugin(limits))
    .get("/api/v1/ok", () => "ok");
  expect((await app.handle(new Request("http://localhost/api/v1/ok"))).status).toBe(200);
  expect(drawn).toBe(1);
});
