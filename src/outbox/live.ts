import { sql } from "drizzle-orm";
import { createPubSub, filter, pipe } from "graphql-yoga";
import { AUTH_CHANNEL } from "../auth/key-store.ts";
import type { Database, Executor } from "../db/client.ts";
import { tooManyRequests } from "../errors.ts";
import { errorFields, type Logger } from "../logger.ts";

/** Channel every instance LISTENs on for changes of tickets, alerts and equipment. */
export const LIVE_CHANNEL = "orgit_live";
/** Postgres refuses NOTIFY payloads from 8000 bytes; a bigger event travels as a reference. */
const NOTIFY_MAX_BYTES = 7_900;
/** Open subscription streams one API key may hold on one instance. */
export const MAX_STREAMS_PER_KEY = 10;

export type LiveResource = "ticket" | "alert" | "equipment";

export interface FieldChange {
  field: string;
  from: string | null;
  to: string | null;
}

/** What a subscriber receives (the SDL's TicketEvent, AlertEvent, EquipmentEvent). */
export interface LiveEvent {
  type: string;
  occurredAt: string;
  organizationId: string;
  resource: LiveResource;
  /** the record as GraphQL shows it (camelCase) */
  record: Record<string, unknown> & { id: string };
  changes: FieldChange[];
  comment?: Record<string, unknown> | null;
}

/** Reads a record again when its event was too big to travel whole (docs/decisions.md §17.7). */
export type LiveLoaders = Record<
  LiveResource,
  (organizationId: string, id: string) => Promise<Record<string, unknown> | undefined>
>;

const text = (value: unknown) =>
  value === null || value === undefined ? null : typeof value === "string" ? value : String(value);

export const fieldChanges = (changes?: Record<string, { from: unknown; to: unknown }>) =>
  Object.entries(changes ?? {}).map(([field, { from, to }]) => ({
    field,
    from: text(from),
    to: text(to),
  }));

/**
 * Tells every instance's subscribers about a change, through `tx`: Postgres delivers the
 * NOTIFY at commit and drops it on rollback, so a stream never sees a change that was undone.
 */
export async function notifyLive(tx: Executor, event: LiveEvent): Promise<void> {
  let payload = JSON.stringify(event);
  if (new TextEncoder().encode(payload).length > NOTIFY_MAX_BYTES) {
    const changes = event.changes.map(({ field }) => ({ field, from: null, to: null }));
    payload = JSON.stringify({
      ...event,
      record: { id: event.record.id },
      changes,
      comment: null,
      reference: true,
    });
  }
  await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
}

type Topics = Record<LiveResource, [organizationId: string, event: LiveEvent]>;

/** One open stream: whose it is, how to check its key again, and how to end it. */
interface OpenStream {
  keyId: string;
  organizationId: string;
  /** resolves false (or rejects) when the key no longer authenticates in its organization */
  stillValid: () => Promise<boolean>;
  end?: () => void;
}

/**
 * The subscribers' side: graphql-yoga's pub/sub on this instance, fed by LISTEN on
 * LIVE_CHANNEL (every instance hears every committed change), and the count of open streams
 * per key. A stream that ends, fails or is abandoned by its client gives its slot back.
 */
export class LiveHub {
  private readonly pubsub = createPubSub<Topics>();
  private readonly streams = new Map<string, number>();
  private readonly open = new Set<OpenStream>();
  private unlisten?: () => Promise<void>;
  private unlistenAuth?: () => Promise<void>;

  constructor(
    private readonly database: Database,
    private readonly loaders: LiveLoaders,
    private readonly logger: Logger,
  ) {}

  async start() {
    this.unlisten = await this.database.listen(LIVE_CHANNEL, (payload) => {
      void this.receive(payload).catch((error) =>
        this.logger.error("live event dropped", errorFields(error)),
      );
    });
    // a revoked key, a removed owner, a changed organization: its open streams are checked again
    this.unlistenAuth = await this.database.listen(AUTH_CHANNEL, (payload) => {
      // after the key store (listening on the same channel) has dropped its cached entries
      setTimeout(() => void this.recheck(payload), 0);
    });
  }

  async stop() {
    const unlisten = [this.unlisten, this.unlistenAuth];
    this.unlisten = undefined;
    this.unlistenAuth = undefined;
    for (const stop of unlisten) {
      try {
        await stop?.();
      } catch (error) {
        // the database may be gone already: shutdown goes on, its listeners went with it
        this.logger.warn("could not stop listening for live changes", { error: String(error) });
      }
    }
  }

  /** Ends each open stream touched by an auth change whose key no longer authenticates. */
  private async recheck(payload: string) {
    let change: { kind?: string; id?: string };
    try {
      change = JSON.parse(payload);
    } catch {
      return;
    }
    for (const stream of [...this.open]) {
      const touched =
        (change.kind === "key" && change.id === stream.keyId) ||
        (change.kind === "organization" && change.id === stream.organizationId);
      if (!touched) continue;
      const valid = await stream.stillValid().catch(() => false);
      // it may have ended meanwhile (closed by its client, or by a concurrent check)
      if (!valid && this.open.has(stream)) stream.end?.();
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

  /** The organization's events of one resource that pass `keep`. */
  subscribe(resource: LiveResource, organizationId: string, keep: (event: LiveEvent) => boolean) {
    return pipe(this.pubsub.subscribe(resource, organizationId), filter(keep));
  }

  /**
   * Takes one of the key's stream slots (429 beyond the limit). `release` gives it back once;
   * `onEnd` names how to end the stream when its key stops authenticating.
   */
  openStream(
    keyId: string,
    organizationId: string,
    stillValid: () => Promise<boolean>,
  ): { release: () => void; onEnd: (end: () => void) => void } {
    const open = this.streams.get(keyId) ?? 0;
    if (open >= MAX_STREAMS_PER_KEY) {
      throw tooManyRequests(
        `At most ${MAX_STREAMS_PER_KEY} open subscription streams per API key; close one first`,
      );
    }
    this.streams.set(keyId, open + 1);
    const stream: OpenStream = { keyId, organizationId, stillValid };
    this.open.add(stream);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.open.delete(stream);
      const left = (this.streams.get(keyId) ?? 1) - 1;
      if (left <= 0) this.streams.delete(keyId);
      else this.streams.set(keyId, left);
    };
    return {
      release,
      onEnd: (end) => {
        stream.end = end;
      },
    };
  }

  /** Open streams of a key on this instance (tests, and the settings screen one day). */
  openStreams(keyId: string) {
    return this.streams.get(keyId) ?? 0;
  }
}
