import type { Logger } from "../logger.ts";
import type { BucketRule, MemoryRateLimiter, RateLimiter, Taken } from "./token-bucket.ts";

/**
 * The one Redis call the limiter needs. Bun's built-in `RedisClient` has exactly this method;
 * the Bun entry constructs it and injects it, so no core file imports a Bun-only module.
 */
export interface RedisCommands {
  send(command: string, args: string[]): Promise<unknown>;
  /** opens the connection ahead of the first request (Bun's client connects lazily) */
  connect?(): Promise<void>;
}

/**
 * Checks and takes a token from every bucket in one atomic step, on Redis's clock (TIME), so
 * any number of instances share one limit without trusting each other's clocks.
 * KEYS: the buckets. ARGV: limit and window (ms) per bucket. Returns the all-allowed flag,
 * then each bucket's tokens left ×1000 (Redis integer replies drop fractions).
 */
export const BUCKET_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local tokens = {}
local allowed = 1
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', KEYS[i], 't', 'a')
  local t = limit
  if state[1] then
    t = math.min(limit, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * limit / window)
  end
  tokens[i] = t
  if t < 1 then allowed = 0 end
end
local out = { allowed }
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local t = tokens[i]
  if allowed == 1 then
    t = t - 1
    redis.call('HSET', KEYS[i], 't', tostring(t), 'a', tostring(now))
    redis.call('PEXPIRE', KEYS[i], math.ceil((limit - t) * window / limit) + 1000)
  end
  out[i + 1] = math.floor(t * 1000)
end
return out
`;

const TIMEOUT_MS = 250;
const WARN_EVERY_MS = 30_000;
const RETRY_AFTER_FAILURE_MS = 5_000;
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Buckets in Redis, shared by every instance. When Redis fails or is slow (250 ms) the request
 * is not refused: this instance's own buckets decide (fail open) for the next 5 s before Redis
 * is tried again, and the outage is logged at most every 30 s.
 */
export class RedisRateLimiter implements RateLimiter {
  private sha?: string;
  private lastWarning = 0;
  private downUntil = 0;

  constructor(
    private readonly redis: RedisCommands,
    private readonly fallback: MemoryRateLimiter,
    private readonly logger: Logger,
    private readonly prefix = "orgit:rl:",
  ) {}

  /** Connects and loads the script at start-up; a failure is logged and requests fail open. */
  async start(): Promise<void> {
    try {
      await withTimeout(
        (async () => {
          await this.redis.connect?.();
          this.sha = String(await this.redis.send("SCRIPT", ["LOAD", BUCKET_SCRIPT]));
        })(),
        CONNECT_TIMEOUT_MS,
      );
    } catch (error) {
      this.lastWarning = Date.now();
      this.logger.warn("Redis rate limiter unavailable; using in-process buckets", {
        error: String(error),
      });
    }
  }

  async take(rules: readonly BucketRule[], ids: readonly string[]): Promise<Taken> {
    if (Date.now() < this.downUntil) return this.fallback.take(rules, ids);
    try {
      const reply = await withTimeout(this.run(rules, ids), TIMEOUT_MS);
      return {
        allowed: reply[0] === 1,
        tokens: rules.map((_, i) => Number(reply[i + 1]) / 1000),
      };
    } catch (error) {
      const now = Date.now();
      // do not make every request wait for a dead Redis: try again in a few seconds
      this.downUntil = now + RETRY_AFTER_FAILURE_MS;
      if (now - this.lastWarning >= WARN_EVERY_MS) {
        this.lastWarning = now;
        this.logger.warn("Redis rate limiter unavailable; using in-process buckets", {
          error: String(error),
        });
      }
      return this.fallback.take(rules, ids);
    }
  }

  sweep(): void {
    this.fallback.sweep();
  }

  get size(): number {
    return this.fallback.size;
  }

  private async run(rules: readonly BucketRule[], ids: readonly string[]): Promise<number[]> {
    const keys = rules.map((rule, i) => `${this.prefix}${rule.name}:${ids[i]}`);
    const args = rules.flatMap((rule) => [String(rule.limit), String(rule.windowMs)]);
    if (!this.sha) this.sha = String(await this.redis.send("SCRIPT", ["LOAD", BUCKET_SCRIPT]));
    try {
      return (await this.redis.send("EVALSHA", [
        this.sha,
        String(keys.length),
        ...keys,
        ...args,
      ])) as number[];
    } catch (error) {
      // a restarted or flushed Redis forgets loaded scripts
      if (!String(error).includes("NOSCRIPT")) throw error;
      this.sha = undefined;
      return (await this.redis.send("EVAL", [
        BUCKET_SCRIPT,
        String(keys.length),
        ...keys,
        ...args,
      ])) as number[];
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
