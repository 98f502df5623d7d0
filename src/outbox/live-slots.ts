import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { liveStreamSlots } from "../db/schema/index.ts";
import type { RedisCommands } from "../limits/redis-buckets.ts";

/** How long a slot outlives its holder's last renewal, and how often holders renew. */
export interface SlotTimes {
  ttlMs: number;
  renewMs: number;
}
export const SLOT_TIMES: SlotTimes = { ttlMs: 30_000, renewMs: 10_000 };

/**
 * The open-stream slots of every instance (docs/decisions.md §21): `take` answers false when
 * the key holds `max` already, anywhere; a holder renews its slots, and a slot it stops
 * renewing (its process died) is free after `ttlMs`.
 */
export interface StreamSlots {
  take(keyId: string, streamId: string, max: number): Promise<boolean>;
  give(keyId: string, streamId: string): Promise<void>;
  renew(held: readonly { keyId: string; streamId: string }[]): Promise<void>;
  /** slots the key holds on every instance */
  count(keyId: string): Promise<number>;
}

/** Slots as rows of live_stream_slots, on the database's clock. */
export class DatabaseStreamSlots implements StreamSlots {
  private readonly instanceId: string;

  constructor(
    private readonly database: Database,
    private readonly times: SlotTimes = SLOT_TIMES,
  ) {
    this.instanceId = database.newInstanceId();
  }

  private expiry() {
    return sql`now() + make_interval(secs => ${this.times.ttlMs / 1000})`;
  }

  async take(keyId: string, streamId: string, max: number): Promise<boolean> {
    return this.database.db.transaction(async (tx) => {
      // one taker per key at a time: the count and the insert see the same rows
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`live:${keyId}`}, 0))`);
      const held = and(
        eq(liveStreamSlots.apiKeyId, keyId),
        lt(liveStreamSlots.expiresAt, sql`now()`),
      );
      await tx.delete(liveStreamSlots).where(held);
      let rows = await tx
        .select({ instanceId: liveStreamSlots.instanceId })
        .from(liveStreamSlots)
        .where(eq(liveStreamSlots.apiKeyId, keyId));
      if (rows.length >= max) {
        // full: slots of an instance that holds no session any more (killed) are free at once
        const owners = [...new Set(rows.map((row) => row.instanceId))];
        // on this transaction: a second connection may never come while takers queued behind
        // the lock hold every other one (a pool, or PgBouncer's server sessions)
        const live = await this.database.liveInstances?.(owners, tx);
        const dead = live ? owners.filter((id) => !live.has(id)) : [];
        if (dead.length > 0) {
          await tx
            .delete(liveStreamSlots)
            .where(
              and(eq(liveStreamSlots.apiKeyId, keyId), inArray(liveStreamSlots.instanceId, dead)),
            );
          rows = rows.filter((row) => !dead.includes(row.instanceId));
        }
      }
      if (rows.length >= max) return false;
      await tx.insert(liveStreamSlots).values({
        id: streamId,
        apiKeyId: keyId,
        instanceId: this.instanceId,
        expiresAt: this.expiry(),
      });
      return true;
    });
  }

  async give(_keyId: string, streamId: string): Promise<void> {
    await this.database.db.delete(liveStreamSlots).where(eq(liveStreamSlots.id, streamId));
  }

  async renew(held: readonly { streamId: string }[]): Promise<void> {
    if (held.length === 0) return;
    await this.database.db
      .update(liveStreamSlots)
      .set({ expiresAt: this.expiry() })
      .where(eq(liveStreamSlots.instanceId, this.instanceId));
  }

  async count(keyId: string): Promise<number> {
    return this.database.db.$count(
      liveStreamSlots,
      and(eq(liveStreamSlots.apiKeyId, keyId), sql`${liveStreamSlots.expiresAt} >= now()`),
    );
  }
}

/**
 * KEYS[1]: the key's sorted set (member: stream id, score: expiry in ms on Redis's clock).
 * ARGV: max, ttl ms, stream id. Drops expired slots, then takes one if fewer than max are held.
 */
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;

/** KEYS: sorted sets; ARGV: ttl ms, then one stream id per key. Moves each held slot's expiry on. */
const RENEW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', now + ttl, ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return #KEYS
`;

/** KEYS[1]: a key's sorted set. The slots not yet expired. */
const COUNT_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], now, '+inf')
`;

/** Slots in one Redis sorted set per key, on Redis's clock. */
export class RedisStreamSlots implements StreamSlots {
  constructor(
    private readonly redis: RedisCommands,
    private readonly prefix = "orgit:live:slots:",
    private readonly times: SlotTimes = SLOT_TIMES,
  ) {}

  private eval(script: string, keys: string[], args: string[]) {
    return this.redis.send("EVAL", [script, String(keys.length), ...keys, ...args]);
  }

  async take(keyId: string, streamId: string, max: number): Promise<boolean> {
    const ttl = String(this.times.ttlMs);
    const taken = await this.eval(TAKE_SCRIPT, [this.prefix + keyId], [String(max), ttl, streamId]);
    return Number(taken) === 1;
  }

  async give(keyId: string, streamId: string): Promise<void> {
    await this.redis.send("ZREM", [this.prefix + keyId, streamId]);
  }

  async renew(held: readonly { keyId: string; streamId: string }[]): Promise<void> {
    if (held.length === 0) return;
    const keys = held.map(({ keyId }) => this.prefix + keyId);
    const ids = held.map(({ streamId }) => streamId);
    await this.eval(RENEW_SCRIPT, keys, [String(this.times.ttlMs), ...ids]);
  }

  async count(keyId: string): Promise<number> {
    return Number(await this.eval(COUNT_SCRIPT, [this.prefix + keyId], []));
  }
}
