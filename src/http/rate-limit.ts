import { Elysia } from "elysia";
import type { Plan } from "../auth/permissions.ts";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../errors.ts";
import { IpBlocks } from "./ip-blocks.ts";
import { dailyQuota, quotaExceeded, writeQuotaHeaders } from "./quota.ts";
import type { QuotaCheck, QuotaCounter } from "./quota-store.ts";
import { type RatePolicy, ratePolicy, writeRateHeaders } from "./rate-headers.ts";
import { pathOf, type RequestMeta, requestMeta } from "./request-context.ts";
import {
  type BucketRule,
  type RateLimiter,
  secondsToNextToken,
  type Taken,
} from "./token-bucket.ts";

/** Interface B: requests per minute per organization by plan; null: unlimited. */
export const PLAN_PER_MINUTE: Record<Plan, number | null> = {
  FREE: 100,
  PRO: 1000,
  ENTERPRISE: null,
};

const INGEST_PATH = "/api/v1/alerts/ingest";
/** reports the quota without counting against it (docs/decisions.md §6) */
const QUOTA_PEEK_PATH = "/api/v1/health";
const MINUTE = 60_000;

type Headers = Record<string, string | number>;

/**
 * A result now, or later when Redis or the database is involved. The in-process steady state
 * stays synchronous: every request passes here, and each avoided await is a microtask saved.
 */
type Step<T> = T | Promise<T>;
const then = <T, U>(step: Step<T>, next: (value: T) => Step<U>): Step<U> =>
  step instanceof Promise ? step.then(next) : next(step);

/**
 * Interface A's three buckets, its daily quota, interface B's per-organization plan limit, and
 * the per-key limits of /graphql. A keyless /api/v1 request (ingest, a missing key) draws from
 * its IP's buckets before routing. With a key, the IP bucket is drawn together with the key's
 * buckets once authentication knows the key — one limiter call, so one Redis script, per
 * request — or, if the key is refused or the request fails before authentication (unknown
 * route, malformed body), right then: every /api/v1 request counts against its IP.
 * Each step writes the headers, so error answers (400, 401, 403, 404, 429) carry them too.
 * Which buckets apply is known per kind of request, so their policies (and header text) are
 * built once here rather than on every request.
 */
export class RateLimits {
  /** a key, and the IP's bucket still to draw: IP + key + burst (the key's) */
  private readonly keyedWithIp: RatePolicy;
  /** a key whose request already drew from its IP */
  private readonly keyed: RatePolicy;
  /** no usable key: IP + burst (the IP's) */
  private readonly keyless: RatePolicy;
  /** an /api/v1 request that failed before authentication */
  private readonly ipOnly: RatePolicy;
  /** interface B, per organization */
  private readonly plans: Record<Plan, RatePolicy | null>;
  /** addresses whose IP bucket is empty: refused before their credential is looked up */
  private readonly blocks: IpBlocks;

  constructor(
    private readonly limiter: RateLimiter,
    readonly quota: QuotaCounter,
    config: Config["rateLimit"],
    now: () => number = Date.now,
  ) {
    const ip: BucketRule = { name: "ip", limit: config.ipPerMin, windowMs: MINUTE };
    const key: BucketRule = { name: "key", limit: config.keyPerMin, windowMs: MINUTE };
    const burst: BucketRule = { name: "burst", limit: config.burstPerSec, windowMs: 1000 };
    this.keyedWithIp = ratePolicy([ip, key, burst]);
    this.keyed = ratePolicy([key, burst]);
    this.keyless = ratePolicy([ip, burst]);
    this.ipOnly = ratePolicy([ip]);
    this.blocks = new IpBlocks(ip, now);
    const plan = (limit: number | null) =>
      limit === null ? null : ratePolicy([{ name: "org", limit, windowMs: MINUTE }]);
    this.plans = {
      FREE: plan(PLAN_PER_MINUTE.FREE),
      PRO: plan(PLAN_PER_MINUTE.PRO),
      ENTERPRISE: plan(PLAN_PER_MINUTE.ENTERPRISE),
    };
  }

  /** Before routing: keyless /api/v1 requests are limited at once; keyed ones later. */
  beforeAuth(request: Request, path: string, headers: Headers): Step<ApiError | undefined> {
    if (!path.startsWith("/api/v1/")) return;
    const meta = requestMeta(request);
    if (!meta) return;
    // without a key the burst bucket is the IP's (ingest never has one)
    if (path !== INGEST_PATH && request.headers.has("authorization")) {
      const blocked = this.refuseBlocked(request, headers);
      if (blocked) return blocked;
      meta.ipBucketPending = true;
      return;
    }
    const ip = meta.clientIp ?? "unknown";
    meta.ipDrawn = true;
    return then(this.limiter.take(this.keyless.rules, [ip, ip]), (taken) =>
      this.answer(this.keyless, taken, headers, "Too many requests", ip),
    );
  }

  /**
   * Before a credential is looked up, on any surface: an address whose IP bucket refused a
   * moment ago gets the per-IP 429 again at once (see IpBlocks). The sign-in form uses it too.
   */
  refuseBlocked(request: Request, headers: Headers): ApiError | undefined {
    const tokens = this.blocks.tokens(requestMeta(request)?.clientIp ?? "unknown");
    if (tokens === undefined) return;
    writeRateHeaders(headers, this.ipOnly, [tokens]);
    return tooMany("Too many requests", this.ipOnly.rules, [tokens]);
  }

  /**
   * Authentication failed, on any surface (a missing, invented, expired or revoked key, a wrong
   * operator token, an unknown install link, later a wrong password): one token from the
   * caller's IP bucket — the same bucket every /api/v1 request draws from — and the per-IP 429
   * when it is empty. A bad key never gets a bucket of its own.
   */
  failedAuth(request: Request, headers: Headers): Step<void> {
    const meta = requestMeta(request);
    if (meta?.ipDrawn) return; // a keyless /api/v1 request: drawn before routing
    const pending = meta?.ipBucketPending === true;
    if (meta) meta.ipBucketPending = false;
    // a keyed /api/v1 request draws as a keyless one would (IP + the IP's burst)
    const policy = pending ? this.keyless : this.ipOnly;
    const ip = meta?.clientIp ?? "unknown";
    return then(this.limiter.take(policy.rules, pending ? [ip, ip] : [ip]), (taken) => {
      if (meta) meta.ipDrawn = true;
      const refused = this.answer(policy, taken, headers, "Too many requests", ip);
      if (refused) throw refused;
    });
  }

  /**
   * An /api/v1 request that ends before authentication (unknown route, malformed body): its
   * IP bucket is drawn now. Answers the per-IP 429 when that bucket is empty.
   */
  beforeAuthError(request: Request, headers: Headers): Step<ApiError | undefined> {
    const meta = requestMeta(request);
    if (!meta?.ipBucketPending) return;
    meta.ipBucketPending = false;
    const ip = meta.clientIp ?? "unknown";
    return then(this.limiter.take(this.ipOnly.rules, [ip]), (taken) =>
      this.answer(this.ipOnly, taken, headers, "Too many requests", ip),
    );
  }

  /**
   * After authentication: IP + key + burst and the daily quota (A), or the plan limit (B).
   * `meta` is the request's context (the caller has it at hand: one lookup fewer).
   */
  afterAuth(
    meta: RequestMeta | undefined,
    path: string,
    principal: Principal,
    headers: Headers,
  ): Step<void> {
    if (path.startsWith("/api/v1/")) {
      const limited = this.perKey(meta, principal, headers);
      // usually settled already: no closure, no microtask
      if (limited instanceof Promise) {
        return limited.then(() => this.dailyQuota(path, principal, headers));
      }
      return this.dailyQuota(path, principal, headers);
    }
    if (!path.startsWith("/api/")) return;
    const policy = this.plans[principal.organization.plan];
    if (policy === null) return;
    return then(this.limiter.take(policy.rules, [principal.organization.id]), (taken) => {
      const refused = this.answer(policy, taken, headers, "Rate limit exceeded");
      if (refused) throw refused;
    });
  }

  /** /graphql with an API key: the per-key buckets; the daily quota does not apply. */
  graphql(request: Request, principal: Principal, headers: Headers): Step<void> {
    return this.perKey(requestMeta(request), principal, headers);
  }

  private perKey(meta: RequestMeta | undefined, principal: Principal, headers: Headers) {
    const key = principal.apiKey.id;
    const withIp = meta?.ipBucketPending === true;
    if (meta) meta.ipBucketPending = false;
    const policy = withIp ? this.keyedWithIp : this.keyed;
    const ip = meta?.clientIp ?? "unknown";
    const ids = withIp ? [ip, key, key] : [key, key];
    const taken = this.limiter.take(policy.rules, ids);
    return taken instanceof Promise
      ? taken.then((t) => this.keyAnswer(policy, t, headers, ip))
      : this.keyAnswer(policy, taken, headers, ip);
  }

  /** The key's headers; refused: nothing was taken, and an empty IP bucket speaks first. */
  private keyAnswer(policy: RatePolicy, taken: Taken, headers: Headers, ip: string): void {
    writeRateHeaders(headers, policy, taken.tokens);
    if (taken.allowed) return;
    if (policy === this.keyedWithIp && (taken.tokens[0] as number) < 1) {
      this.blocks.note(ip, taken.tokens[0] as number);
      throw tooMany("Too many requests", this.ipOnly.rules, taken.tokens);
    }
    throw tooMany("API key rate limit exceeded", policy.rules, taken.tokens);
  }

  /** Writes the headers; the 429 to answer when a bucket refused (an empty IP one is noted). */
  private answer(policy: RatePolicy, taken: Taken, headers: Headers, message: string, ip?: string) {
    writeRateHeaders(headers, policy, taken.tokens);
    if (taken.allowed) return undefined;
    const first = taken.tokens[0] as number;
    if (ip !== undefined && policy.rules[0]?.name === "ip" && first < 1)
      this.blocks.note(ip, first);
    return tooMany(message, policy.rules, taken.tokens);
  }

  private dailyQuota(path: string, principal: Principal, headers: Headers): Step<void> {
    const limit = dailyQuota(principal.organization);
    const check = this.quota.check(principal.organization.id, limit, path !== QUOTA_PEEK_PATH);
    return check instanceof Promise
      ? check.then((c) => quotaAnswer(headers, limit, c))
      : quotaAnswer(headers, limit, check);
  }

  /** Drops buckets that have refilled completely; on a timer (src/http/limits.ts). */
  sweep(): void {
    this.limiter.sweep?.();
    this.blocks.sweep();
  }

  /** Buckets held in this process, for tests and diagnostics. */
  get bucketCount(): number {
    return this.limiter.size ?? 0;
  }
}

function quotaAnswer(headers: Headers, limit: number | null, check: QuotaCheck): void {
  writeQuotaHeaders(headers, limit, check);
  if (!check.allowed && limit !== null) throw quotaExceeded(limit, check.used);
}

/**
 * A rate-limit 429: `{ error, retryAfter }` and Retry-After, in whole seconds (≥ 1) until
 * every empty bucket among `rules` (a prefix of the policy's) has a token again.
 */
function tooMany(message: string, rules: readonly BucketRule[], tokens: number[]): ApiError {
  let retryAfter = 1;
  for (let i = 0; i < rules.length; i++) {
    const left = tokens[i] as number;
    if (left < 1)
      retryAfter = Math.max(retryAfter, secondsToNextToken(rules[i] as BucketRule, left));
  }
  return new ApiError(
    "RATE_LIMITED",
    message,
    undefined,
    { retryAfter },
    {
      "retry-after": String(retryAfter),
    },
  );
}

/**
 * The per-IP step, before routing and authentication, so 401s and unknown routes count too.
 * Registered right after the request context (which resolves the client IP).
 */
export const rateLimitPlugin = (limits: RateLimits | undefined) =>
  new Elysia({ name: "rate-limit" })
    .onRequest(({ request, set }) => {
      if (!limits) return;
      const step = limits.beforeAuth(request, pathOf(request.url), set.headers as Headers);
      if (step === undefined) return; // keyed, or not /api/v1: decided after authentication
      return then(step, (refused) => {
        if (!refused) return;
        set.status = refused.status;
        Object.assign(set.headers, refused.headers);
        return refused.body();
      });
    })
    // errors before authentication (unknown route, malformed body) still count against the
    // IP; unless that refuses the request, the error handler after this hook answers
    .onError({ as: "global" }, ({ request, set }) => settlePendingIp(limits, request, set))
    // a safety net for an /api/v1 route that never authenticates: it counts all the same
    .onAfterHandle({ as: "global" }, ({ request, set }) => settlePendingIp(limits, request, set));

function settlePendingIp(
  limits: RateLimits | undefined,
  request: Request,
  set: { status?: number | string; headers: Record<string, unknown> },
) {
  if (!limits) return;
  const step = limits.beforeAuthError(request, set.headers as Headers);
  if (step === undefined) return; // the usual case: the IP bucket was drawn with the key's
  return then(step, (refused) => {
    if (!refused) return;
    set.status = refused.status;
    Object.assign(set.headers, refused.headers);
    return refused.body();
  });
}
