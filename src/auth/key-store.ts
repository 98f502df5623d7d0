import type { Database } from "../db/client.ts";
import { readWithRetry } from "../db/errors.ts";
import {
  deregisterInstance,
  instancesSeenSince,
  registerInstance,
  touchInstance,
} from "../db/queries/service-instances.ts";
import { unauthenticated } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { admitKey } from "./key-admission.ts";
import { KeyUse } from "./key-use.ts";
import { isWellFormedApiKey, sha256Hex } from "./keys.ts";
import { type KeyRecord, loadKeyRecord } from "./load-principal.ts";
import type { Principal } from "./principal.ts";

/** Channel on which every instance hears that a key, member, role or organization changed. */
export const AUTH_CHANNEL = "orgit_auth";
const MAX_ENTRIES = 10_000;
/** safety net only: changes arrive by NOTIFY long before this */
const TTL_MS = 60_000;
/**
 * A "no such key" read this soon after a database connection closed is not cached: it may be a
 * driver's mix-up after the lost session, refusing a valid key (docs/decisions.md §33).
 */
const UNSETTLED_MS = 10_000;
/** how long a change waits for every instance to acknowledge it */
const ACK_TIMEOUT_MS = 2_000;
const HEARTBEAT_MS = 5_000;
/**
 * An instance silent for this long is presumed dead and not waited for. On Postgres a process
 * that died is noticed at once (its sessions are gone, see `waitedFor`); this bound is for a
 * host that vanished without closing its connections, and for PGlite.
 */
const INSTANCE_STALE_MS = 15_000;

interface CacheEntry {
  record: KeyRecord | null;
  loadedAt: number;
}

export type AuthChange = { kind: "key"; id: string } | { kind: "organization"; id: string };

type AuthMessage =
  | (AuthChange & { nonce: string })
  | { kind: "ack"; nonce: string; instance: string };

interface PendingAck {
  waitingFor: Set<string>;
  done: () => void;
}

/**
 * Resolves a bearer secret to a Principal. Lookups are cached by key hash; any change that can
 * affect a key (revocation, member removal, role or plan change) is announced over Postgres
 * NOTIFY and drops the affected entries on every instance. Expiry is checked on every request.
 */
export class KeyStore {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly use: KeyUse;
  private readonly pending = new Map<string, PendingAck>();
  private readonly instanceId: string;
  private unlisten?: () => Promise<void>;
  private timers: ReturnType<typeof setInterval>[] = [];
  private readonly watchers: ((change: AuthChange) => Promise<void>)[] = [];

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    // the id its database sessions carry, so that others can see whether it is still alive
    this.instanceId = database.newInstanceId();
    this.use = new KeyUse(() => database.db, logger);
  }

  async start(): Promise<void> {
    // rows of instances gone for a day are forgotten
    await registerInstance(this.database.db, this.instanceId, new Date(Date.now() - 86_400_000));
    this.unlisten = await this.database.listen(
      AUTH_CHANNEL,
      (payload) => this.onNotification(payload),
      () => this.cache.clear(),
    );
    this.every(5_000, () => this.flushLastUsed());
    this.every(HEARTBEAT_MS, () => this.heartbeat());
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await this.flushLastUsed();
    try {
      await this.unlisten?.();
      await deregisterInstance(this.database.db, this.instanceId);
    } catch (error) {
      // the database is away: shutdown goes on; others skip this instance once its sessions
      // are gone (Postgres) or its heartbeat is stale
      this.logger.warn("could not deregister this instance", { error: String(error) });
    }
  }

  private every(ms: number, task: () => Promise<void>) {
    const timer = setInterval(() => void task(), ms);
    (timer as { unref?: () => void }).unref?.();
    this.timers.push(timer);
  }

  private async heartbeat(): Promise<void> {
    try {
      await touchInstance(this.database.db, this.instanceId, new Date());
    } catch (error) {
      this.logger.warn("instance heartbeat failed", { error: String(error) });
    }
  }

  /**
   * Authenticates an `Authorization` header value from a client address (http/client-ip.ts);
   * throws the contract's 401, or 403 when the key's allowlist does not hold the address.
   */
  async authenticate(secret: string | undefined, clientIp?: string): Promise<Principal> {
    return this.authenticateNow(secret, clientIp);
  }

  /** `authenticate`, settled at once (a value or a throw) when the key's record is cached. */
  authenticateNow(secret: string | undefined, clientIp?: string): Principal | Promise<Principal> {
    if (!secret) throw unauthenticated("Missing API key");
    const hash = sha256Hex(secret);
    // a cached hash was well formed (or is cached as unknown: the same 401); only a secret
    // that would cost a database read has its format and checksum checked first
    const hit = this.cached(hash); // null: an unknown hash cached, never read again
    if (hit === undefined)
      return this.load(secret, hash).then((record) => this.admit(record, clientIp));
    return this.admit(hit, clientIp);
  }

  private admit(record: KeyRecord | null, clientIp: string | undefined): Principal {
    const now = this.now();
    const principal = admitKey(record, clientIp, now);
    const { keyId, graceEndsAt } = record as KeyRecord;
    this.use.note(keyId, now, graceEndsAt ? { ip: clientIp } : undefined);
    return principal;
  }

  /**
   * Drops affected entries here at once, tells every instance over NOTIFY, and returns when
   * each live instance has acknowledged (bounded by ACK_TIMEOUT_MS): from then on no instance
   * can answer from a stale entry.
   */
  async announce(change: AuthChange): Promise<void> {
    this.invalidate(change);
    const nonce = crypto.randomUUID();
    const waitingFor = await this.waitedFor();
    waitingFor.add(this.instanceId);
    const acknowledged = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ACK_TIMEOUT_MS);
      this.pending.set(nonce, {
        waitingFor,
        done: () => {
          clearTimeout(timer);
          resolve(true);
        },
      });
    });
    await this.database.notify(AUTH_CHANNEL, JSON.stringify({ ...change, nonce }));
    if (!(await acknowledged)) {
      this.logger.warn("auth change not acknowledged by every instance in time", {
        change,
        missing: [...waitingFor],
      });
    }
    this.pending.delete(nonce);
  }

  /**
   * Instances that heartbeat recently and, on Postgres, still hold a session: one that crashed
   * or was killed without deregistering is skipped at once instead of costing every change the
   * whole ACK_TIMEOUT_MS until its heartbeat goes stale.
   */
  private async waitedFor(): Promise<Set<string>> {
    const since = new Date(Date.now() - INSTANCE_STALE_MS);
    const ids = await instancesSeenSince(this.database.db, since);
    const live = await this.database.liveInstances?.(ids);
    return new Set(live ? ids.filter((id) => live.has(id)) : ids);
  }

  private onNotification(payload: string): void {
    let message: AuthMessage;
    try {
      message = JSON.parse(payload) as AuthMessage;
    } catch {
      this.logger.warn("ignored malformed auth notification", { payload });
      this.cache.clear();
      return;
    }
    if (message.kind === "ack") {
      const pending = this.pending.get(message.nonce);
      pending?.waitingFor.delete(message.instance);
      if (pending && pending.waitingFor.size === 0) pending.done();
      return;
    }
    this.invalidate(message);
    const ack = { kind: "ack", nonce: message.nonce, instance: this.instanceId };
    const watched = this.watchers.map((watch) => watch(message).catch(() => {}));
    void Promise.all(watched)
      .then(() => this.database.notify(AUTH_CHANNEL, JSON.stringify(ack)))
      .catch((error) => {
        this.logger.warn("could not acknowledge auth change", { error: String(error) });
      });
  }

  /** Runs `watch` (e.g. re-checking open live streams) on every auth change this instance hears, before acknowledging it. */
  watch(watch: (change: AuthChange) => Promise<void>): void {
    this.watchers.push(watch);
  }

  private invalidate(change: AuthChange): void {
    for (const [hash, { record }] of this.cache) {
      if (record && (change.kind === "key" ? record.keyId : record.organizationId) === change.id) {
        this.cache.delete(hash);
      }
    }
  }

  /** The cached record of a hash; undefined when not cached (or too old), null when unknown. */
  private cached(hash: string): KeyRecord | null | undefined {
    const cached = this.cache.get(hash);
    return cached && Date.now() - cached.loadedAt < TTL_MS ? cached.record : undefined;
  }

  private async load(secret: string, hash: string): Promise<KeyRecord | null> {
    if (!isWellFormedApiKey(secret)) throw unauthenticated("Invalid API key");
    const now = Date.now();
    const record = await readWithRetry(() => loadKeyRecord(this.database.db, hash));
    // unknown hashes are cached too (a secret created later cannot have been guessed before),
    // but not just after a connection closed (Database.connectionClosedAt)
    const closedAt = this.database.connectionClosedAt?.() ?? Number.NEGATIVE_INFINITY;
    if (record === null && Date.now() - closedAt < UNSETTLED_MS) return record;
    if (this.cache.size >= MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(hash, { record, loadedAt: now });
    return record;
  }

  /** Writes last-use times (key-use.ts); called every few seconds and at shutdown. */
  flushLastUsed(): Promise<void> {
    return this.use.flush();
  }
}
