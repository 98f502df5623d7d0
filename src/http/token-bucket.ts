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
  /** buckets held in this process (the in-process store, or the Redis limiter's fallback) */
  readonly size?: number;
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
  private readonly buckets = new Map<BucketName, Map<string, Entry>>();
  private readonly entries: (Entry | undefined)[] = [];
  private readonly tokens: number[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    /** per bucket kind */
    private readonly maxEntries = 50_000,
  ) {}

  /** buckets held, all kinds together */
  get size(): number {
    let size = 0;
    for (const kind of this.buckets.values()) size += kind.size;
    return size;
  }

  consume(specs: BucketSpec[]): BucketResult[] {
    const now = this.now();
    // scratch space reused across calls (consume is synchronous): this runs on every request
    const entries = this.entries;
    const tokens = this.tokens;
    let allowed = true;
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i] as BucketSpec;
      const entry = this.kind(spec.name).get(spec.id);
      const t = entry ? refill(spec, entry.tokens, entry.at, now) : spec.limit;
      if (t < 1) allowed = false;
      entries[i] = entry;
      tokens[i] = t;
    }
    const results: BucketResult[] = [];
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i] as BucketSpec;
      const before = tokens[i] as number;
      const left = allowed ? before - 1 : before;
      const fullAt = now + ((spec.limit - left) * spec.windowMs) / spec.limit;
      const entry = entries[i];
      if (entry && now - entry.movedAt < REORDER_AFTER_MS) {
        // moved to the young end of the Map recently: update in place, which is much cheaper
        entry.tokens = left;
        entry.at = now;
        entry.fullAt = fullAt;
      } else {
        const kind = this.kind(spec.name);
        if (entry) kind.delete(spec.id);
        kind.set(spec.id, { tokens: left, at: now, fullAt, movedAt: now });
        if (kind.size > this.maxEntries) this.evictOldest(kind);
      }
      results.push({
        name: spec.name,
        limit: spec.limit,
        windowMs: spec.windowMs,
        tokens: left,
        allowed,
      });
    }
    entries.fill(undefined);
    return results;
  }

  private kind(name: BucketName): Map<string, Entry> {
    let kind = this.buckets.get(name);
    if (!kind) {
      kind = new Map();
      this.buckets.set(name, kind);
    }
    return kind;
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
    for (const kind of this.buckets.values()) {
      for (const [id, entry] of kind) {
        if (entry.fullAt <= now) kind.delete(id);
      }
    }
  }
}
