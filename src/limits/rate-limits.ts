import type { Config } from "../config.ts";
import { IpBlocks } from "./ip-blocks.ts";
import type { Headers, KeyHolder, Limits, Step, Surface, Verdict } from "./limits.ts";
import { type KeyedPolicy, ratePolicies, type SurfacePolicies } from "./policies.ts";
import { dailyQuota, writeQuotaHeaders } from "./quota.ts";
import type { QuotaCheck, QuotaCounter } from "./quota-store.ts";
import { type RatePolicy, writeRateHeaders } from "./rate-headers.ts";
import { quotaExceeded, tooMany } from "./refusals.ts";
import type { RateLimiter, Taken } from "./token-bucket.ts";

const IP_REFUSED = "Too many requests";
const KEY_REFUSED = "API key rate limit exceeded";
const PLAN_REFUSED = "Rate limit exceeded";

/** What runs beside the buckets: Redis's connection, the quota and sweep timers. */
export interface Lifecycle {
  start(limits: RateLimits): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The token buckets (per IP, per key, burst, per organization by plan) and the daily quota,
 * behind one verdict per request. Each call draws every bucket it needs in one limiter call
 * (one Redis script), writes the headers, and answers the 429 of the bucket that refused: an
 * empty IP bucket speaks first (and blocks the client until it has a token again), then the
 * key's buckets, then the organization's. Nothing is remembered per request.
 */
export class RateLimits implements Limits {
  private readonly policies: ReturnType<typeof ratePolicies>;
  private readonly surfaces = new Map<Surface, SurfacePolicies>();
  /** clients whose IP bucket is empty: refused before their credential is looked up */
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

  limit(
    surface: Surface,
    client: string,
    key: KeyHolder | undefined,
    headers: Headers,
  ): Step<Verdict> {
    const policies = this.policiesOf(surface);
    if (key === undefined) return this.drawClient(policies.anonymous, client, headers);
    const policy = policies.keyed[key.organization.plan];
    if (policy === null) return this.dailyQuota(policies, key, headers);
    const taken = this.limiter.take(policy.rules, idsOf(policy, client, key));
    // usually settled already: no closure, no microtask
    if (taken instanceof Promise) {
      return taken.then(
        (t) =>
          this.keyAnswer(policy, t, headers, client) ?? this.dailyQuota(policies, key, headers),
      );
    }
    return (
      this.keyAnswer(policy, taken, headers, client) ?? this.dailyQuota(policies, key, headers)
    );
  }

  failedAuth(surface: Surface, client: string, headers: Headers): Step<Verdict> {
    return this.drawClient(this.policiesOf(surface).failed, client, headers);
  }

  blocked(client: string, headers: Headers): Verdict {
    const tokens = this.blocks.tokens(client);
    if (tokens === undefined) return;
    const policy = this.policies.ipOnly;
    writeRateHeaders(headers, policy, [tokens]);
    return tooMany(IP_REFUSED, policy.rules, [tokens]);
  }

  private policiesOf(surface: Surface): SurfacePolicies {
    let policies = this.surfaces.get(surface);
    if (!policies) {
      policies = this.policies.surface(surface);
      this.surfaces.set(surface, policies);
    }
    return policies;
  }

  /** The client's own buckets (IP, and the client's burst): no key involved. */
  private drawClient(policy: RatePolicy | null, client: string, headers: Headers): Step<Verdict> {
    if (policy === null) return;
    const ids = policy.rules.length === 1 ? [client] : [client, client];
    const taken = this.limiter.take(policy.rules, ids);
    return taken instanceof Promise
      ? taken.then((t) => this.clientAnswer(policy, t, headers, client))
      : this.clientAnswer(policy, taken, headers, client);
  }

  /** Writes the headers; the 429 when a bucket refused (an empty IP bucket blocks the client). */
  private clientAnswer(
    policy: RatePolicy,
    taken: Taken,
    headers: Headers,
    client: string,
  ): Verdict {
    writeRateHeaders(headers, policy, taken.tokens);
    if (taken.allowed) return;
    const first = taken.tokens[0] as number; // the IP's (policies.ts)
    if (first < 1) this.blocks.note(client, first);
    return tooMany(IP_REFUSED, policy.rules, taken.tokens);
  }

  /** The keyed buckets' headers; refused: nothing was taken, and an empty IP bucket speaks first. */
  private keyAnswer(policy: KeyedPolicy, taken: Taken, headers: Headers, client: string): Verdict {
    writeRateHeaders(headers, policy, taken.tokens);
    if (taken.allowed) return;
    const tokens = taken.tokens;
    if (policy.withIp && (tokens[0] as number) < 1) {
      this.blocks.note(client, tokens[0] as number);
      return tooMany(IP_REFUSED, this.policies.ipOnly.rules, tokens);
    }
    for (const i of policy.keyBuckets) {
      if ((tokens[i] as number) < 1) return tooMany(KEY_REFUSED, policy.rules, tokens);
    }
    return tooMany(PLAN_REFUSED, policy.rules, tokens);
  }

  private dailyQuota(policies: SurfacePolicies, key: KeyHolder, headers: Headers): Step<Verdict> {
    if (policies.quota === "none") return;
    const limit = dailyQuota(key.organization);
    const check = this.quota.check(key.organization.id, limit, policies.quota === "count");
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

/** Whose bucket each of the policy's buckets is: the client's, the key's, the organization's. */
function idsOf(policy: KeyedPolicy, client: string, key: KeyHolder): string[] {
  const ids: string[] = [];
  for (const kind of policy.kinds) {
    ids.push(kind === "ip" ? client : kind === "plan" ? key.organization.id : key.apiKey.id);
  }
  return ids;
}

function quotaAnswer(headers: Headers, limit: number | null, check: QuotaCheck): Verdict {
  writeQuotaHeaders(headers, limit, check);
  if (!check.allowed && limit !== null) return quotaExceeded(limit, check.used);
}
