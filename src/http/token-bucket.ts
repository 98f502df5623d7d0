/**
 * Token buckets behind one small interface (after Unkey's limiter): the in-process store here and
 * a Redis-backed one in redis-buckets.ts.
 * A bucket holds at most `limit` tokens and refills continuously at `limit` per `windowMs`.
 */

export type BucketName = "ip" | "key" | "burst" | "org";

export interface BucketSpec {
  name: BucketName;
  /** whose bucket: an IP address, an API key id or an organization id */
  id: string;
  limit: number;
  windowMs: number;
}

export interface BucketResult {
  name: BucketName;
  limit: number;
  windowMs: number;
  /** tokens left after this request (fractional: refill is continuous) */
  tokens: number;
  allowed: boolean;
}

export interface RateLimiter {
  /**
   * Takes one token from every bucket when each has one, otherwise from none (so a request
   * refused by one bucket does not drain the others). Results follow the order of `specs`.
   */
  consume(specs: BucketSpec[]): BucketResult[] | Promise<BucketResult[]>;
  /** drops state for idle clients; called on a timer */
  sweep?(): void;
}

/** Requests left in the bucket right now. */
export const remaining = (r: BucketResult) => Math.max(0, Math.floor(r.tokens));

/** Whole seconds until the bucket is full again (X-RateLimit-Reset), never negative. */
export const secondsToFull = (r: BucketResult) =>
  Math.max(0, Math.ceil(((r.limit - r.tokens) * r.windowMs) / r.limit / 1000 - 1e-9));

/** Whole seconds until the next token (Retry-After), at least 1. */
export const secondsToNextToken = (r: BucketResult) =>
  Math.max(1, Math.ceil(((1 - r.tokens) * r.windowMs) / r.limit / 1000 - 1e-9));

/** Tokens a bucket last seen with `tokens` at `at` holds at `now`. */
export function refill(spec: BucketSpec, tokens: number, at: number, now: number): number {
  return Math.min(spec.limit, tokens + (Math.max(0, now - at) * spec.limit) / spec.windowMs);
}

interface Entry {
  tokens: number;
  at: number;
  /** when the bucket will be full again: from then on it equals a fresh one and can go */
  fullAt: number;
}

/**
 * In-process buckets. Memory stays bounded under a flood of distinct IPs or keys: `sweep`
 * drops every bucket that has refilled completely (indistinguishable from a new one), and
 * past `maxEntries` the least recently used tenth goes at once (Map order is use order).
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 50_000,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  consume(specs: BucketSpec[]): BucketResult[] {
    const now = this.now();
    const tokens = specs.map((spec) => {
      const entry = this.buckets.get(`${spec.name}:${spec.id}`);
      return entry ? refill(spec, entry.tokens, entry.at, now) : spec.limit;
    });
    const allowed = tokens.every((t) => t >= 1);
    return specs.map((spec, i) => {
      const before = tokens[i] ?? spec.limit;
      const left = allowed ? before - 1 : before;
      const key = `${spec.name}:${spec.id}`;
      this.buckets.delete(key);
      this.buckets.set(key, {
        tokens: left,
        at: now,
        fullAt: now + ((spec.limit - left) * spec.windowMs) / spec.limit,
      });
      if (this.buckets.size > this.maxEntries) this.evictOldest();
      return { name: spec.name, limit: spec.limit, windowMs: spec.windowMs, tokens: left, allowed };
    });
  }

  /**
   * Drops the least recently used tenth in one pass: evicting one entry at a time would walk
   * past the holes left by earlier deletions on every insert.
   */
  private evictOldest(): void {
    let excess = this.buckets.size - Math.floor(this.maxEntries * 0.9);
    for (const key of this.buckets.keys()) {
      if (excess-- <= 0) break;
      this.buckets.delete(key);
    }
  }

  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.buckets) {
      if (entry.fullAt <= now) this.buckets.delete(key);
    }
  }
}
