import type { Services } from "../services.ts";
import { type QuotaCounter, QuotaStore } from "./quota-store.ts";
import { RateLimits } from "./rate-limit.ts";
import { type RedisCommands, RedisRateLimiter } from "./redis-buckets.ts";
import { MemoryRateLimiter, type RateLimiter } from "./token-bucket.ts";

const QUOTA_SYNC_MS = 1_000;
const SWEEP_MS = 10_000;

/**
 * Builds the limiters for one app: buckets in Redis when a client was injected (REDIS_URL under
 * Bun), in process otherwise; the quota store; and the timers that write quota counts every
 * second and sweep idle buckets. `stop` writes the last counts (graceful shutdown).
 */
export function createLimits(
  services: Pick<Services, "config" | "logger" | "database">,
  options: {
    redis?: RedisCommands;
    redisPrefix?: string;
    quotaSyncMs?: number;
    /** the injected clock, if any; otherwise Date.now (no Date object per bucket check) */
    now?: () => Date;
    /** buckets and quota counter of the caller's (the benchmark's), instead of the real ones */
    limiter?: RateLimiter;
    quota?: QuotaCounter;
  },
) {
  const { config, logger, database } = services;
  const injected = options.now;
  const now = injected ? () => injected().getTime() : Date.now;
  const memory = new MemoryRateLimiter(now);
  if (config.redisUrl && !options.redis) {
    logger.warn("REDIS_URL is set but this runtime has no Redis client; using in-process buckets");
  }
  const redis = options.redis
    ? new RedisRateLimiter(options.redis, memory, logger, options.redisPrefix)
    : undefined;
  const limiter = options.limiter ?? redis ?? memory;
  const quota = options.quota ?? new QuotaStore(database, logger, now);
  const limits = new RateLimits(limiter, quota, config.rateLimit, now);
  const timers: ReturnType<typeof setInterval>[] = [];
  const every = (ms: number, task: () => unknown) => {
    const timer = setInterval(task, ms);
    (timer as { unref?: () => void }).unref?.();
    timers.push(timer);
  };
  return {
    limits,
    async start() {
      await redis?.start();
      const syncMs = options.quotaSyncMs ?? QUOTA_SYNC_MS;
      if (syncMs > 0) every(syncMs, () => void quota.sync());
      every(SWEEP_MS, () => limits.sweep());
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await quota.sync();
    },
  };
}
