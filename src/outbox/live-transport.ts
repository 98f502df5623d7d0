import type { Database } from "../db/client.ts";
import type { RedisCommands } from "../limits/redis-buckets.ts";
import { errorFields, type Logger } from "../logger.ts";
import { LIVE_CHANNEL, publishAfterCommit } from "./live-events.ts";

/** A Redis connection given over to SUBSCRIBE (Bun's RedisClient has these methods). */
export interface RedisSubscriber {
  connect?(): Promise<void>;
  subscribe(
    channel: string,
    listener: (message: string, channel: string) => void,
  ): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  /** runs when the connection is back after a loss */
  onconnect?: (() => void) | null;
}

/** REDIS_URL's connections for live updates: commands (PUBLISH, slots) and one to SUBSCRIBE. */
export interface LiveRedis {
  commands: RedisCommands;
  subscriber: RedisSubscriber;
  /** key and channel prefix (tests give each app its own); default "orgit:" */
  prefix?: string;
}

/**
 * Hears every instance's committed live events (docs/decisions.md §17.7, §21): through Redis
 * pub/sub when `redis` is given (this instance's events published once their transaction has
 * committed), through Postgres LISTEN/NOTIFY otherwise. Resolves to how to stop hearing.
 */
export async function hearLiveEvents(
  database: Database,
  logger: Logger,
  onPayload: (payload: string) => void,
  redis?: LiveRedis,
): Promise<() => Promise<unknown>> {
  if (!redis) return database.listen(LIVE_CHANNEL, onPayload);
  const channel = `${redis.prefix ?? "orgit:"}${LIVE_CHANNEL}`;
  try {
    await redis.subscriber.connect?.();
    await redis.subscriber.subscribe(channel, onPayload);
  } catch (error) {
    throw new Error(`cannot subscribe to live updates in Redis (REDIS_URL): ${error}`);
  }
  // Bun's client reconnects but does not subscribe again (the server forgot the subscription
  // while its own listener stays): drop the listener and subscribe anew. Events published
  // meanwhile are lost, as notifications are while a LISTEN connection is down.
  redis.subscriber.onconnect = () => {
    void redis.subscriber
      .unsubscribe(channel)
      .catch(() => {})
      .then(() => redis.subscriber.subscribe(channel, onPayload))
      .then(() => logger.info("live updates: subscribed to Redis again"))
      .catch((error) =>
        logger.error("live updates: cannot subscribe to Redis again", errorFields(error)),
      );
  };
  publishAfterCommit(database.db, (payloads) => {
    for (const payload of payloads) {
      redis.commands.send("PUBLISH", [channel, payload]).catch((error) => {
        // live updates are best effort; the webhook outbox keeps the durable record
        logger.warn("live event not published to Redis", errorFields(error));
      });
    }
  });
  return () => {
    redis.subscriber.onconnect = null;
    return redis.subscriber.unsubscribe(channel);
  };
}
