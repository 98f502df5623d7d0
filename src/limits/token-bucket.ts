/**
 * Token buckets behind one small interface (after Unkey's limiter): the in-process store here and
 * a Redis-backed one in redis-buckets.ts.
 * A bucket holds at most `limit` tokens and refills continuously at `limit` per `windowMs`.
 */

export type BucketName = "ip" | "key" | "burst" | "org";

/** A kind of bucket and its size: `limit` tokens, refilled continuously over `windowMs`. */
export interface BucketRule {
  readonly name: BucketName;
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The outcome of one request against several buckets: whether every bucket had a token, and
 * the tokens each holds afterwards (fractional: refill is continuous), in the rules' order.
 */
export interface Taken {
  allowed: boolean;
  tokens: number[];
}

export interface RateLimiter {
  /**
   * Takes one token from every bucket (`rules[i]` of `ids[i]`: an IP address, an API key id or
   * an organization id) when each has one, otherwise from none, so a request refused by one
   * bucket does not drain the others.
   */
  take(rules: readonly BucketRule[], ids: readonly string[]): Taken | Promise<Taken>;
  /** drops state for idle clients; called on a timer */
  sweep?(): void;
  /** buckets held in this process (the in-process store, or the Redis limiter's fallback) */
  readonly size?: number;
}

/** Requests left in a bucket holding `tokens`. */
export const remaining = (tokens: number) => Math.max(0, Math.floor(tokens));

/** Whole seconds until the bucket is full again (X-RateLimit-Reset), never negative. */
export const secondsToFull = (rule: BucketRule, tokens: number) =>
  Math.max(0, Math.ceil(((rule.limit - tokens) * rule.windowMs) / rule.limit / 1000 - 1e-9));

/** Whole seconds until the next token (Retry-After), at least 1. */
export const secondsToNextToken = (rule: BucketRule, tokens: number) =>
  Math.max(1, Math.ceil(((1 - tokens) * rule.windowMs) / rule.limit / 1000 - 1e-9));

/** Tokens a bucket last seen with `tokens` at `at` holds at `now`. */
export function refill(rule: BucketRule, tokens: number, at: number, now: number): number {
  return Math.min(rule.limit, tokens + (Math.max(0, now - at) * rule.limit) / rule.windowMs);
}

interface Entry {
  tokens: number;
  at: number;
  /** when the bucket will be full again: from then on it equals a fresh one and can go */
  fullAt: number;
  /** when it last moved to the young end of the Map (least-recently-used order, to a second) */
  movedAt: number;
}

const REORDER_AFTER_MS = 1_000;

/**
 * In-process buckets. Memory stays bounded under a flood of distinct IPs or keys: `sweep`
 * drops every bucket that has refilled completely (indistinguishable from a new one), and
 * past `maxEntries` the least recently used tenth goes at once (Map order is use order, to
 * within a second).
 */
export class MemoryRateLimiter implements RateLimiter {
  /** one Map per bucket kind, keyed by id: no key strings to build on every request */
  private readonly buckets: Record<BucketName, Map<string, Entry>> = {
    ip: new Map(),
    key: new Map(),
    burst: new Map(),
    org: new Map(),
  };
  /** scratch space reused across calls (take is synchronous): this runs on every request */
  private readonly entries: (Entry | undefined)[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    /** per bucket kind */
    private readonly maxEntries = 50_000,
  ) {}

  /** buckets held, all kinds together */
  get size(): number {
    let size = 0;
    for (const kind of Object.values(this.buckets)) size += kind.size;
    return size;
  }

  take(rules: readonly BucketRule[], ids: readonly string[]): Taken {
    const now = this.now();
    const entries = this.entries;
    const tokens: number[] = [];
    let allowed = true;
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i] as BucketRule;
      const entry = this.buckets[rule.name].get(ids[i] as string);
      const t = entry ? refill(rule, entry.tokens, entry.at, now) : rule.limit;
      if (t < 1) allowed = false;
      entries[i] = entry;
      tokens.push(t);
    }
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i] as BucketRule;
      const left = allowed ? (tokens[i] as number) - 1 : (tokens[i] as number);
      tokens[i] = left;
      const fullAt = now + ((rule.limit - left) * rule.windowMs) / rule.limit;
      const entry = entries[i];
      if (entry && now - entry.movedAt < REORDER_AFTER_MS) {
        // moved to the young end of the Map recently: update in place, which is much cheaper
        entry.tokens = left;
        entry.at = now;
        entry.fullAt = fullAt;
      } else {
        const kind = this.buckets[rule.name];
        const id = ids[i] as string;
        if (entry) kind.delete(id);
        kind.set(id, { tokens: left, at: now, fullAt, movedAt: now });
        if (kind.size > this.maxEntries) this.evictOldest(kind);
      }
      entries[i] = undefined;
    }
    return { allowed, tokens };
  }

  /**
   * Drops the least recently used tenth in one pass: evicting one entry at a time would walk
   * past the holes left by earlier deletions on every insert.
   */
  private evictOldest(kind: Map<string, Entry>): void {
    let excess = kind.size - Math.floor(this.maxEntries * 0.9);
    for (const id of kind.keys()) {
      if (excess-- <= 0) break;
      kind.delete(id);
    }
  }

  sweep(): void {
    const now = this.now();
    for (const kind of Object.values(this.buckets)) {
      for (const [id, entry] of kind) {
        if (entry.fullAt <= now) kind.delete(id);
      }
    }
  }
}
