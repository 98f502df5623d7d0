import type { Config } from "../config.ts";
import { PeriodicFlush } from "../db/batched-writes.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { Limits } from "./limits.ts";
import { type QuotaCounter, QuotaStore } from "./quota-store.ts";
import { RateLimits } from "./rate-limits.ts";
import { type RedisCommands, RedisRateLimiter } from "./redis-buckets.ts";
import { MemoryRateLimiter, type RateLimiter } from "./token-bucket.ts";

const QUOTA_SYNC_MS = 1_000;
const SWEEP_MS = 10_000;

export interface LimitsOptions {
  /** a Redis client for buckets shared by every instance (REDIS_URL under Bun) */
  redis?: RedisCommands;
  redisPrefix?: string;
  /** how often quota counts are written and other instances' usage read; 0: only on stop */
  quotaSyncMs?: number;
  /** the injected clock, if any; otherwise Date.now (no Date object per bucket check) */
  now?: () => Date;
  /** buckets and quota counter of the caller's (the benchmark's), instead of the real ones */
  limiter?: RateLimiter;
  quota?: QuotaCounter;
}

/**
 * Builds the limits for one app: buckets in Redis when a client was injected, in process
 * otherwise; the quota store; and, once started, the timers that write quota counts every
 * second and sweep idle buckets. `stop` writes the last counts (graceful shutdown).
 */
export function createLimits(
  deps: { config: Config; logger: Logger; database: Database },
  options: LimitsOptions,
): Limits {
  const { config, logger, database } = deps;
  const injected = options.now;
  const now = injected ? () => injected().getTime() : Date.now;
  const memory = new MemoryRateLimiter(now);
  if (config.redisUrl && !options.redis) {
    logger.warn("REDIS_URL is set but this runtime has no Redis client; using in-process buckets");
  }
  const redis = options.redis
    ? new RedisRateLimiter(options.redis, memory, logger, options.redisPrefix)
    : undefined;
  const quota = options.quota ?? new QuotaStore(database, logger, now);
  const quotaFlush = new PeriodicFlush(() => quota.sync(), options.quotaSyncMs ?? QUOTA_SYNC_MS);
  let sweeper: ReturnType<typeof setInterval> | undefined;
  return new RateLimits(options.limiter ?? redis ?? memory, quota, config.rateLimit, now, {
    async start(limits) {
      await redis?.start();
      quotaFlush.start();
      sweeper = setInterval(() => limits.sweep(), SWEEP_MS);
      (sweeper as { unref?: () => void }).unref?.();
    },
    async stop() {
      clearInterval(sweeper);
      await quotaFlush.stop();
    },
  });
}
