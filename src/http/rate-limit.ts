import { Elysia } from "elysia";
import type { Plan } from "../auth/permissions.ts";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import { ApiError } from "../errors.ts";
import { dailyQuota, quotaExceeded, writeQuotaHeaders } from "./quota.ts";
import type { QuotaStore } from "./quota-store.ts";
import { writeRateHeaders } from "./rate-headers.ts";
import { requestMeta } from "./request-context.ts";
import {
  type BucketResult,
  type BucketSpec,
  type RateLimiter,
  secondsToNextToken,
} from "./token-bucket.ts";

/** Interface B: requests per minute per organization by plan; null: unlimited. */
export const PLAN_PER_MINUTE: Record<Plan, number | null> = {
  FREE: 100,
  PRO: 1000,
  ENTERPRISE: null,
};

const INGEST_PATH = "/api/v1/alerts/ingest";
/** reports the quota without counting against it (CONTRACT section 6) */
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
 */
export class RateLimits {
  constructor(
    private readonly limiter: RateLimiter,
    readonly quota: QuotaStore,
    private readonly config: Config["rateLimit"],
  ) {}

  /** Before routing: keyless /api/v1 requests are limited at once; keyed ones later. */
  beforeAuth(request: Request, path: string, headers: Headers): Step<ApiError | undefined> {
    if (!path.startsWith("/api/v1/")) return;
    const meta = requestMeta(request);
    if (!meta) return;
    // without a key the burst bucket is the IP's (ingest never has one)
    if (path !== INGEST_PATH && request.headers.has("authorization")) {
      meta.ipBucketPending = true;
      return;
    }
    const ip = meta.clientIp ?? "unknown";
    return then(this.limiter.consume([this.ip(ip), this.burst(ip)]), (results) => {
      meta.buckets = results;
      writeRateHeaders(headers, results);
      return refusedBy(results) ? tooMany("Too many requests", results) : undefined;
    });
  }

  /** Authentication failed: the IP's buckets (a bad key never gets a bucket of its own). */
  afterAuthFailure(request: Request, headers: Headers): Step<void> {
    const meta = requestMeta(request);
    if (!meta?.ipBucketPending) return;
    meta.ipBucketPending = false;
    const ip = meta.clientIp ?? "unknown";
    return then(this.limiter.consume([this.ip(ip), this.burst(ip)]), (results) => {
      meta.buckets = results;
      writeRateHeaders(headers, results);
      if (refusedBy(results)) throw tooMany("Too many requests", results);
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
    return then(this.limiter.consume([this.ip(meta.clientIp ?? "unknown")]), (results) => {
      meta.buckets = results;
      writeRateHeaders(headers, results);
      return refusedBy(results) ? tooMany("Too many requests", results) : undefined;
    });
  }

  /** After authentication: IP + key + burst and the daily quota (A), or the plan limit (B). */
  afterAuth(request: Request, path: string, principal: Principal, headers: Headers): Step<void> {
    if (path.startsWith("/api/v1/")) {
      return then(this.perKey(request, principal, headers), () =>
        this.dailyQuota(path, principal, headers),
      );
    }
    if (!path.startsWith("/api/")) return;
    const limit = PLAN_PER_MINUTE[principal.organization.plan];
    if (limit === null) return;
    const spec: BucketSpec = {
      name: "org",
      id: principal.organization.id,
      limit,
      windowMs: MINUTE,
    };
    return then(this.limiter.consume([spec]), (results) => {
      writeRateHeaders(headers, results);
      if (refusedBy(results)) throw tooMany("Rate limit exceeded", results);
    });
  }

  /** /graphql with an API key: the per-key buckets; the daily quota does not apply. */
  graphql(request: Request, principal: Principal, headers: Headers): Step<void> {
    return this.perKey(request, principal, headers);
  }

  private perKey(request: Request, principal: Principal, headers: Headers): Step<void> {
    const key = principal.apiKey.id;
    const keySpec: BucketSpec = {
      name: "key",
      id: key,
      limit: this.config.keyPerMin,
      windowMs: MINUTE,
    };
    const meta = requestMeta(request);
    let specs: BucketSpec[];
    if (meta?.ipBucketPending) {
      meta.ipBucketPending = false;
      specs = [this.ip(meta.clientIp ?? "unknown"), keySpec, this.burst(key)];
    } else {
      specs = [keySpec, this.burst(key)];
    }
    return then(this.limiter.consume(specs), (results) => {
      writeRateHeaders(headers, results);
      if (!refusedBy(results)) return;
      // refused: nothing was taken, and the empty bucket is the refusing one (the IP's first)
      const ip = results[0]?.name === "ip" ? results[0] : undefined;
      if (ip && ip.tokens < 1) throw tooMany("Too many requests", [ip]);
      throw tooMany("API key rate limit exceeded", results);
    });
  }

  private dailyQuota(path: string, principal: Principal, headers: Headers): Step<void> {
    const limit = dailyQuota(principal.organization);
    const consume = path !== QUOTA_PEEK_PATH;
    return then(this.quota.check(principal.organization.id, limit, consume), (check) => {
      writeQuotaHeaders(headers, limit, check);
      if (!check.allowed && limit !== null) throw quotaExceeded(limit, check.used);
    });
  }

  /** Drops buckets that have refilled completely; on a timer (src/http/limits.ts). */
  sweep(): void {
    this.limiter.sweep?.();
  }

  /** Buckets held in this process, for tests and diagnostics. */
  get bucketCount(): number {
    return this.limiter.size ?? 0;
  }

  private ip(ip: string): BucketSpec {
    return { name: "ip", id: ip, limit: this.config.ipPerMin, windowMs: MINUTE };
  }

  private burst(id: string): BucketSpec {
    return { name: "burst", id, limit: this.config.burstPerSec, windowMs: 1000 };
  }
}

const refusedBy = (results: BucketResult[]) => results.some((r) => !r.allowed);

/** A rate-limit 429: `{ error, retryAfter }` and Retry-After, in whole seconds (≥ 1). */
function tooMany(message: string, results: BucketResult[]): ApiError {
  const refused = results.filter((r) => r.tokens < 1);
  const retryAfter = Math.max(1, ...refused.map(secondsToNextToken));
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

/** The path of a request URL without parsing all of it (this runs on every request). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
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
