import { createPubSub, type Repeater } from "graphql-yoga";
import type { AuthChange, KeyStore } from "../auth/key-store.ts";
import type { Principal } from "../auth/principal.ts";
import type { Database } from "../db/client.ts";
import { ApiError, tooManyRequests } from "../errors.ts";
import { errorFields, type Logger } from "../logger.ts";
import type { LiveEvent, LiveResource } from "./live-events.ts";
import {
  DatabaseStreamSlots,
  RedisStreamSlots,
  SLOT_TIMES,
  type SlotTimes,
  type StreamSlots,
} from "./live-slots.ts";
import { type LiveMessage, type LiveRule, LiveSubscriptions } from "./live-subscriptions.ts";
import { hearLiveEvents, type LiveRedis } from "./live-transport.ts";

export type { FieldChange, LiveEvent, LiveResource } from "./live-events.ts";
export { fieldChanges, LIVE_CHANNEL, notifyLive } from "./live-events.ts";
export type { LiveRedis, RedisSubscriber } from "./live-transport.ts";

/** Open subscription streams one API key may hold, on all instances together. */
export const MAX_STREAMS_PER_KEY = 10;

/** Reads a record again when its event was too big to travel whole (docs/decisions.md §17.7). */
export type LiveLoaders = Record<
  LiveResource,
  (organizationId: string, id: string) => Promise<Record<string, unknown> | undefined>
>;

export interface LiveOptions {
  /** REDIS_URL: events published and stream slots counted in Redis (docs/decisions.md §21) */
  redis?: LiveRedis;
  slotTimes?: SlotTimes;
}

type Topics = Record<LiveResource, [organizationId: string, event: LiveEvent]>;

/** One open stream: whose it is, how to read its caller again, and how to end it. */
interface OpenStream {
  id: string;
  keyId: string;
  organizationId: string;
  /** the caller as its key authenticates now; rejects when it no longer does */
  reload: () => Promise<Principal>;
  end?: () => void;
}

/**
 * The subscribers' side: graphql-yoga's pub/sub on this instance, fed by every instance's
 * committed changes (Postgres LISTEN, or Redis SUBSCRIBE with REDIS_URL), and the per-key
 * stream slots shared by every instance. A stream that ends, fails or is abandoned by its
 * client gives its slot back; an auth change checks the open streams and subscriptions again.
 */
export class LiveHub {
  private readonly pubsub = createPubSub<Topics>();
  private readonly local = new Map<string, number>();
  private readonly open = new Set<OpenStream>();
  private readonly subscriptions = new LiveSubscriptions();
  private readonly slots: StreamSlots;
  private readonly times: SlotTimes;
  private stops: (() => Promise<unknown>)[] = [];
  /** slots being given back, awaited at stop so that none outlives a graceful shutdown */
  private readonly giving = new Set<Promise<void>>();
  private renewer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly database: Database,
    private readonly keys: KeyStore,
    private readonly loaders: LiveLoaders,
    private readonly logger: Logger,
    private readonly options: LiveOptions = {},
  ) {
    this.times = options.slotTimes ?? SLOT_TIMES;
    const redis = options.redis;
    this.slots = redis
      ? new RedisStreamSlots(redis.commands, `${redis.prefix ?? "orgit:"}live:slots:`, this.times)
      : new DatabaseStreamSlots(database, this.times);
  }

  async start() {
    const onPayload = (payload: string) => {
      void this.receive(payload).catch((error) =>
        this.logger.error("live event dropped", errorFields(error)),
      );
    };
    this.stops.push(
      await hearLiveEvents(this.database, this.logger, onPayload, this.options.redis),
    );
    // a revoked key, a removed owner, a changed role: its open streams are checked again
    // before this instance acknowledges the change, so the change's mutation returns after it
    this.keys.watch((change) => this.recheck(change));
    this.renewer = setInterval(() => void this.renew(), this.times.renewMs);
    (this.renewer as { unref?: () => void }).unref?.();
  }

  async stop() {
    clearInterval(this.renewer);
    const stops = this.stops;
    this.stops = [];
    for (const stream of [...this.open]) stream.end?.();
    await Promise.all(this.giving);
    for (const stop of stops) {
      try {
        await stop();
      } catch (error) {
        // the database may be gone already: shutdown goes on, its listeners went with it
        this.logger.warn("could not stop listening for live changes", { error: String(error) });
      }
    }
  }

  /**
   * The heartbeat: renews this instance's slots, and checks every open stream's caller again,
   * which ends the streams of keys that expired or whose grace period ended (no notification
   * tells of those) and catches any auth change whose notification was lost.
   */
  private async renew() {
    const held = [...this.open].map(({ keyId, id }) => ({ keyId, streamId: id }));
    await this.slots.renew(held).catch((error) => {
      this.logger.warn("could not renew live stream slots", errorFields(error));
    });
    for (const stream of [...this.open]) await this.check(stream);
  }

  /**
   * Ends a stream whose caller no longer authenticates; applies a changed role. A check that
   * could not be made (the database is down) leaves the stream as it is until the next one.
   */
  private async check(stream: OpenStream) {
    let fresh: Principal | undefined;
    try {
      fresh = await stream.reload();
    } catch (error) {
      if (!(error instanceof ApiError && (error.status === 401 || error.status === 403))) return;
    }
    // it may have ended meanwhile (closed by its client, or by a concurrent check)
    if (!this.open.has(stream)) return;
    if (fresh?.organization.id !== stream.organizationId) stream.end?.();
    else this.subscriptions.recheck(stream.keyId, fresh);
  }

  /** Checks again each open stream touched by an auth change, and its subscriptions. */
  private async recheck(change: AuthChange) {
    for (const stream of [...this.open]) {
      const touched =
        (change.kind === "key" && change.id === stream.keyId) ||
        (change.kind === "organization" && change.id === stream.organizationId);
      if (touched) await this.check(stream);
    }
  }

  private async receive(payload: string) {
    const event = JSON.parse(payload) as LiveEvent & { reference?: boolean };
    if (event.reference) {
      const record = await this.loaders[event.resource](event.organizationId, event.record.id);
      if (!record) return;
      event.record = record as LiveEvent["record"];
    }
    this.pubsub.publish(event.resource, event.organizationId, event);
  }

  /**
   * The organization's events of one resource that `rule.keep` passes for the caller as they
   * are now; when `rule.allowed` no longer holds after an auth change, one error and the end.
   */
  subscribe(resource: LiveResource, principal: Principal, rule: LiveRule): Repeater<LiveMessage> {
    const source = this.pubsub.subscribe(resource, principal.organization.id);
    return this.subscriptions.add(source, principal, rule);
  }

  /**
   * Takes one of the key's stream slots (429 when it holds MAX_STREAMS_PER_KEY on all instances
   * together). `release` gives it back once; `onEnd` names how to end the stream when its key
   * stops authenticating.
   */
  async openStream(
    keyId: string,
    organizationId: string,
    reload: () => Promise<Principal>,
  ): Promise<{ release: () => void; onEnd: (end: () => void) => void }> {
    const id = crypto.randomUUID();
    // slots this instance is still giving back count as free: never refused for those
    await Promise.all(this.giving);
    const here = this.local.get(keyId) ?? 0;
    const taken = await this.slots.take(keyId, id, MAX_STREAMS_PER_KEY).catch((error) => {
      // the shared count is out of reach: this instance's own count decides (fail open)
      this.logger.warn("live stream slots unavailable", errorFields(error));
      return here < MAX_STREAMS_PER_KEY;
    });
    if (!taken) {
      throw tooManyRequests(
        `At most ${MAX_STREAMS_PER_KEY} open subscription streams per API key; close one first`,
      );
    }
    this.local.set(keyId, here + 1);
    const stream: OpenStream = { id, keyId, organizationId, reload };
    this.open.add(stream);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.open.delete(stream);
      const left = (this.local.get(keyId) ?? 1) - 1;
      if (left <= 0) this.local.delete(keyId);
      else this.local.set(keyId, left);
      const giving = this.slots
        .give(keyId, id)
        .catch((error) => {
          // it expires by itself once no instance renews it
          this.logger.warn("live stream slot not given back", errorFields(error));
        })
        .finally(() => this.giving.delete(giving));
      this.giving.add(giving);
    };
    return {
      release,
      onEnd: (end) => {
        stream.end = end;
      },
    };
  }

  /** Open streams of a key on this instance. */
  openStreams(keyId: string) {
    return this.local.get(keyId) ?? 0;
  }

  /** Open streams of a key on every instance (the shared slots). */
  heldStreams(keyId: string) {
    return this.slots.count(keyId);
  }
}
