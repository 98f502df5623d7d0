import type { Database } from "../db/client.ts";
import { readWithRetry } from "../db/errors.ts";
import { recordLastUse } from "../db/queries/api-keys.ts";
import {
  deregisterInstance,
  instancesSeenSince,
  registerInstance,
  touchInstance,
} from "../db/queries/service-instances.ts";
import { unauthenticated } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { isWellFormedApiKey, sha256Hex } from "./keys.ts";
import { type KeyRecord, loadKeyRecord } from "./load-principal.ts";
import type { Principal } from "./principal.ts";

/** Channel on which every instance hears that a key, member, role or organization changed. */
export const AUTH_CHANNEL = "orgit_auth";
const MAX_ENTRIES = 10_000;
/** safety net only: changes arrive by NOTIFY long before this */
const TTL_MS = 60_000;
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
  private readonly lastUsed = new Map<string, Date>();
  private readonly pending = new Map<string, PendingAck>();
  private readonly instanceId: string;
  private unlisten?: () => Promise<void>;
  private timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    // the id its database sessions carry, so that others can see whether it is still alive
    this.instanceId = database.newInstanceId();
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

  /** Authenticates an `Authorization` header value; throws the contract's 401 otherwise. */
  async authenticate(secret: string | undefined): Promise<Principal> {
    if (!secret) throw unauthenticated("Missing API key");
    if (!isWellFormedApiKey(secret)) throw unauthenticated("Invalid API key");
    const hash = sha256Hex(secret);
    const record = await this.lookup(hash);
    if (!record) throw unauthenticated("Invalid API key");
    if (record.revokedAt) throw unauthenticated("API key revoked");
    if (record.expiresAt && record.expiresAt.getTime() <= this.now().getTime()) {
      throw unauthenticated("API key expired");
    }
    if (!record.principal) {
      throw unauthenticated("API key owner is no longer a member of this organization");
    }
    this.lastUsed.set(record.keyId, this.now());
    return record.principal;
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
    this.database.notify(AUTH_CHANNEL, JSON.stringify(ack)).catch((error) => {
      this.logger.warn("could not acknowledge auth change", { error: String(error) });
    });
  }

  private invalidate(change: AuthChange): void {
    for (const [hash, entry] of this.cache) {
      const record = entry.record;
      if (!record) continue;
      if (
        change.kind === "key" ? record.keyId === change.id : record.organizationId === change.id
      ) {
        this.cache.delete(hash);
      }
    }
  }

  private async lookup(hash: string): Promise<KeyRecord | null> {
    const cached = this.cache.get(hash);
    const now = Date.now();
    if (cached && now - cached.loadedAt < TTL_MS) return cached.record;
    const record = await readWithRetry(() => loadKeyRecord(this.database.db, hash));
    if (this.cache.size >= MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    // unknown hashes are cached too: a secret created later cannot have been guessed before
    this.cache.set(hash, { record, loadedAt: now });
    return record;
  }

  /** Writes last-use times in one statement; called every few seconds and at shutdown. */
  async flushLastUsed(): Promise<void> {
    if (this.lastUsed.size === 0) return;
    const batch = [...this.lastUsed];
    this.lastUsed.clear();
    try {
      await recordLastUse(this.database.db, batch);
    } catch (error) {
      this.logger.warn("could not record API key last use", { error: String(error) });
    }
  }
}
