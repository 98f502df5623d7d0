import type { Config } from "../config.ts";
import type { ApiError } from "../errors.ts";
import { IpBlocks } from "./ip-blocks.ts";
import {
  andThen,
  type Caller,
  type Headers,
  isAuthFailure,
  type KeyHolder,
  type Limits,
  type Step,
} from "./limits.ts";
import { ratePolicies } from "./policies.ts";
import { dailyQuota, writeQuotaHeaders } from "./quota.ts";
import type { QuotaCheck, QuotaCounter } from "./quota-store.ts";
import { type RatePolicy, writeRateHeaders } from "./rate-headers.ts";
import { quotaExceeded, tooMany } from "./refusals.ts";
import type { RateLimiter, Taken } from "./token-bucket.ts";

const INGEST_PATH = "/api/v1/alerts/ingest";
/** reports the quota without counting against it (docs/decisions.md §6) */
const QUOTA_PEEK_PATH = "/api/v1/health";
const IP_REFUSED = "Too many requests";

/** What runs beside the buckets: Redis's connection, the quota and sweep timers. */
export interface Lifecycle {
  start(limits: RateLimits): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Interface A's three buckets, its daily quota, interface B's per-organization plan limit, and
 * the per-key limits of /graphql. A keyless /api/v1 request (ingest, a missing key) draws from
 * its IP's buckets before routing. With a key, the IP bucket is drawn together with the key's
 * buckets once authentication knows the key — one limiter call, so one Redis script, per
 * request — or, if the key is refused or the request fails before authentication (unknown
 * route, malformed body), right then: every /api/v1 request counts against its IP.
 * Each step writes the headers, so error answers (400, 401, 403, 404, 429) carry them too.
 */
export class RateLimits implements Limits {
  private readonly policies: ReturnType<typeof ratePolicies>;
  /** addresses whose IP bucket is empty: refused before their credential is looked up */
  private readonly blocks: IpBlocks;

  constructor(
    private readonly limiter: RateLimiter,
    readonly quota: QuotaCounter,
    config: Config["rateLimit"],
    now: () => number = Date.now,
    private readonly lifecycle?: Lifecycle,
  ) {
    this.policies = ratePolicies(config);
    this.blocks = new IpBlocks(this.policies.ip, now);
  }

  beforeAuth(
    caller: Caller | undefined,
    path: string,
    hasCredential: boolean,
    headers: Headers,
  ): Step<ApiError | undefined> {
    if (!caller || !path.startsWith("/api/v1/")) return;
    // without a key the burst bucket is the IP's (ingest never has one)
    if (hasCredential && path !== INGEST_PATH) {
      const blocked = this.refuseBlocked(caller, headers);
      if (blocked) return blocked;
      caller.ipBucketPending = true;
      return;
    }
    const ip = caller.clientIp ?? "unknown";
    caller.ipDrawn = true;
    return andThen(this.limiter.take(this.policies.keyless.rules, [ip, ip]), (taken) =>
      this.answer(this.policies.keyless, taken, headers, IP_REFUSED, ip),
    );
  }

  /**
   * An address whose IP bucket refused a moment ago gets the per-IP 429 again at once (see
   * IpBlocks), on any surface. The sign-in form uses it too.
   */
  async throttle<T>(
    caller: Caller | undefined,
    headers: Headers,
    attempt: () => Promise<T>,
    failed: (error: unknown) => boolean = isAuthFailure,
  ): Promise<T> {
    const blocked = this.refuseBlocked(caller, headers);
    if (blocked) throw blocked;
    try {
      return await attempt();
    } catch (error) {
      if (failed(error)) await this.failedAuth(caller, headers); // throws the 429 when empty
      throw error;
    }
  }

  refuseBlocked(caller: Caller | undefined, headers: Headers): ApiError | undefined {
    const tokens = this.blocks.tokens(caller?.clientIp ?? "unknown");
    if (tokens === undefined) return;
    writeRateHeaders(headers, this.policies.ipOnly, [tokens]);
    return tooMany(IP_REFUSED, this.policies.ipOnly.rules, [tokens]);
  }

  /**
   * Authentication failed, on any surface (a missing, invented, expired or revoked key, a wrong
   * operator token, an unknown install link, later a wrong password): one token from the
   * caller's IP bucket — the same bucket every /api/v1 request draws from — and the per-IP 429
   * when it is empty. A bad key never gets a bucket of its own.
   */
  failedAuth(caller: Caller | undefined, headers: Headers): Step<void> {
    if (caller?.ipDrawn) return; // a keyless /api/v1 request: drawn before routing
    const pending = caller?.ipBucketPending === true;
    if (caller) caller.ipBucketPending = false;
    // a keyed /api/v1 request draws as a keyless one would (IP + the IP's burst)
    const policy = pending ? this.policies.keyless : this.policies.ipOnly;
    const ip = caller?.clientIp ?? "unknown";
    return andThen(this.limiter.take(policy.rules, pending ? [ip, ip] : [ip]), (taken) => {
      if (caller) caller.ipDrawn = true;
      const refused = this.answer(policy, taken, headers, IP_REFUSED, ip);
      if (refused) throw refused;
    });
  }

  beforeAuthError(caller: Caller | undefined, headers: Headers): Step<ApiError | undefined> {
    if (!caller?.ipBucketPending) return;
    caller.ipBucketPending = false;
    const ip = caller.clientIp ?? "unknown";
    return andThen(this.limiter.take(this.policies.ipOnly.rules, [ip]), (taken) =>
      this.answer(this.policies.ipOnly, taken, headers, IP_REFUSED, ip),
    );
  }

  afterAuth(caller: Caller | undefined, path: string, key: KeyHolder, headers: Headers) {
    if (path.startsWith("/api/v1/")) {
      const limited = this.perKey(caller, key, headers);
      // usually settled already: no closure, no microtask
      if (limited instanceof Promise) {
        return limited.then(() => this.dailyQuota(path, key, headers));
      }
      return this.dailyQuota(path, key, headers);
    }
    if (!path.startsWith("/api/")) return;
    const policy = this.policies.plans[key.organization.plan];
    if (policy === null) return;
    return andThen(this.limiter.take(policy.rules, [key.organization.id]), (taken) => {
      const refused = this.answer(policy, taken, headers, "Rate limit exceeded");
      if (refused) throw refused;
    });
  }

  graphql(caller: Caller | undefined, key: KeyHolder, headers: Headers): Step<void> {
    return this.perKey(caller, key, headers);
  }

  private perKey(caller: Caller | undefined, key: KeyHolder, headers: Headers): Step<void> {
    const id = key.apiKey.id;
    const withIp = caller?.ipBucketPending === true;
    if (caller) caller.ipBucketPending = false;
    const policy = withIp ? this.policies.keyedWithIp : this.policies.keyed;
    const ip = caller?.clientIp ?? "unknown";
    const taken = this.limiter.take(policy.rules, withIp ? [ip, id, id] : [id, id]);
    return taken instanceof Promise
      ? taken.then((t) => this.keyAnswer(policy, t, headers, ip))
      : this.keyAnswer(policy, taken, headers, ip);
  }

  /** The key's headers; refused: nothing was taken, and an empty IP bucket speaks first. */
  private keyAnswer(policy: RatePolicy, taken: Taken, headers: Headers, ip: string): void {
    writeRateHeaders(headers, policy, taken.tokens);
    if (taken.allowed) return;
    if (policy === this.policies.keyedWithIp && (taken.tokens[0] as number) < 1) {
      this.blocks.note(ip, taken.tokens[0] as number);
      throw tooMany(IP_REFUSED, this.policies.ipOnly.rules, taken.tokens);
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

  private dailyQuota(path: string, key: KeyHolder, headers: Headers): Step<void> {
    const limit = dailyQuota(key.organization);
    const check = this.quota.check(key.organization.id, limit, path !== QUOTA_PEEK_PATH);
    return check instanceof Promise
      ? check.then((c) => quotaAnswer(headers, limit, c))
      : quotaAnswer(headers, limit, check);
  }

  sweep(): void {
    this.limiter.sweep?.();
    this.blocks.sweep();
  }

  get bucketCount(): number {
    return this.limiter.size ?? 0;
  }

  async start(): Promise<void> {
    await this.lifecycle?.start(this);
  }

  async stop(): Promise<void> {
    await this.lifecycle?.stop();
  }
}

function quotaAnswer(headers: Headers, limit: number | null, check: QuotaCheck): void {
  writeQuotaHeaders(headers, limit, check);
  if (!check.allowed && limit !== null) throw quotaExceeded(limit, check.used);
}
