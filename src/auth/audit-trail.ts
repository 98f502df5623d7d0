/**
 * The usage and audit trail's recorder (docs/security.md#audit-trail): every authenticated API
 * request and every key or session event is recorded in `audit_log` (a second's alike requests
 * share a row: src/db/queries/audit-fold.ts, folded as they arrive). Recording is a push onto a
 * bounded in-memory buffer; a timer writes it in multi-row INSERTs (src/db/batched-writes.ts),
 * so a request never waits on the database, and a database that is away costs dropped, counted
 * rows rather than memory without end. The last rows are written at shutdown.
 */
import { BoundedBatch, PeriodicFlush } from "../db/batched-writes.ts";
import type { Database } from "../db/client.ts";
import { type AuditEntry, entryWeight, isFold, RequestFolds } from "../db/queries/audit-fold.ts";
import { type AuditTuple, insertAuditRows, organizationsOfUsers } from "../db/queries/audit-log.ts";
import { ensureDayPartitions, isMissingPartition } from "../db/queries/audit-partitions.ts";
import type { Logger } from "../logger.ts";

/** Key and session events (docs/security.md#audit-trail lists what each one means). */
export type AuditEventKind =
  | "api_key.created"
  | "api_key.revoked"
  | "api_key.rotated"
  | "api_key.allowlist_changed"
  | "organization.key_policy_changed"
  | "session.signed_in"
  | "session.sign_in_failed";

export interface AuditEvent {
  kind: AuditEventKind;
  /** absent: recorded in every organization `userId` is a member of (a sign-in) */
  organizationId?: string;
  /** the member the event is about (a key's owner, who signed in) */
  userId?: string | null;
  apiKeyId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  /** facts worth keeping (a key's name, a grace period); never a secret */
  detail?: Record<string, unknown>;
}

/**
 * The key a refused request presented, when it was recognised (revoked, expired, its owner gone;
 * a rotated secret or an address outside its allowlist): such a refusal is recorded in the
 * key's organization like any request. `refusedWith` tags the error where the key is known
 * (src/auth/key-store.ts); the HTTP layer reads it back with `refusedKeyOf`.
 */
export interface RefusedKey {
  apiKeyId: string;
  organizationId: string;
  userId: string | null;
}
const refusedKeys = new WeakMap<object, RefusedKey>();
export function refusedWith<E extends object>(error: E, key: RefusedKey): E {
  refusedKeys.set(error, key);
  return error;
}
export const refusedKeyOf = (error: unknown): RefusedKey | undefined =>
  typeof error === "object" && error !== null ? refusedKeys.get(error) : undefined;

/** One API request made with a recognised key, as the HTTP layer saw it. */
export interface RequestRecord {
  organizationId: string;
  apiKeyId: string;
  userId: string | null;
  method: string;
  /** the route template (`/api/v1/tickets/:id`), never the raw URL */
  route: string;
  status: number;
  durationMs: number;
  ip: string | undefined;
  userAgent: string | null;
  requestId: string | undefined;
}

export interface AuditTrailOptions {
  /** false: nothing is recorded (the benchmark's baseline) */
  enabled?: boolean;
  /**
   * how often the buffer is written (250 ms: each statement costs both sides a fixed part
   * besides its rows; docs/decisions.md §40); 0: only by `flush()`, `flushAtRequests` and at
   * stop (tests)
   */
  flushMs?: number;
  /**
   * a flush starts as soon as this many requests arrived since the last one was taken (5,000:
   * under heavy traffic a statement's text, built on the event loop, stays under a millisecond
   * of work; docs/decisions.md §40); 0: never by count
   */
  flushAtRequests?: number;
  /** rows held at most while the database is away or slow */
  capacity?: number;
  /**
   * rows a statement writes at most (2,500: a statement costs both sides a fixed part besides
   * its rows, and a longer one holds the event loop longer; docs/decisions.md §31)
   */
  batchSize?: number;
}

export class AuditTrail {
  private readonly batch: BoundedBatch<AuditEntry>;
  /** requests are folded into their rows as they arrive, until a flush takes the rows */
  private readonly folds = new RequestFolds();
  private readonly timer: PeriodicFlush;
  private readonly flushAt: number;
  /** requests recorded since a flush last took the buffer */
  private sinceTaken = 0;
  readonly enabled: boolean;

  constructor(
    private readonly database: Database,
    logger: Logger,
    /** epoch ms: Date.now unless a clock is injected (no Date object per request) */
    private readonly now: () => number,
    options: AuditTrailOptions = {},
  ) {
    this.enabled = options.enabled ?? true;
    this.batch = new BoundedBatch((rows) => this.write(rows), logger, {
      name: "the audit trail",
      capacity: options.capacity ?? 100_000,
      batchSize: options.batchSize ?? 2_500,
      weight: entryWeight,
      taken: () => {
        this.folds.close();
        this.sinceTaken = 0;
      },
    });
    this.timer = new PeriodicFlush(() => this.batch.flush(), options.flushMs ?? 250);
    this.flushAt = options.flushAtRequests ?? 5_000;
  }

  /** Counters for operators and tests: pending, written, dropped. */
  get stats() {
    return this.batch.stats;
  }

  /** Called by the HTTP layer once the response is sent. */
  request(r: RequestRecord): void {
    if (!this.enabled || !this.batch.admit()) return;
    const started = this.folds.add([
      this.now(),
      r.organizationId,
      "request",
      r.apiKeyId,
      r.userId,
      r.method,
      r.route,
      r.status,
      r.durationMs,
      r.ip ?? null,
      r.userAgent,
      r.requestId ?? null,
      null,
    ]);
    if (started) this.batch.push(started);
    if (++this.sinceTaken === this.flushAt) this.timer.runNext();
  }

  /**
   * Records a key or session event: `services.auditTrail.record({ kind: "api_key.rotated",
   * organizationId, apiKeyId, userId, detail: { gracePeriod } })`. Never throws, never waits.
   */
  record(event: AuditEvent): void {
    if (!this.enabled) return;
    this.batch.add([
      this.now(),
      event.organizationId ?? null,
      event.kind,
      event.apiKeyId ?? null,
      event.userId ?? null,
      null,
      null,
      null,
      null,
      event.ip ?? null,
      event.userAgent ?? null,
      event.requestId ?? null,
      event.detail ?? null,
    ]);
  }

  /** Writes everything pending now (tests, and the timer). */
  flush(): Promise<void> {
    return this.timer.run();
  }

  async start(): Promise<void> {
    if (!this.enabled) return;
    const now = this.now();
    await ensureDayPartitions(this.database.db, [now, now + 86_400_000]);
    this.timer.start();
  }

  /** Stops the timer and writes every last row, those of requests still finishing too. */
  async stop(): Promise<void> {
    await this.timer.stop(false);
    await this.batch.drain();
  }

  private async write(pending: AuditEntry[]): Promise<void> {
    const rows = await this.withOrganizations(pending);
    try {
      await insertAuditRows(this.database.db, rows);
    } catch (error) {
      // a day no instance has created a partition for yet (a clock past the maintenance job)
      if (!isMissingPartition(error)) throw error;
      await ensureDayPartitions(
        this.database.db,
        rows.map((row) => (isFold(row) ? row.first[0] : row[0])),
      );
      await insertAuditRows(this.database.db, rows);
    }
  }

  /** An event without an organization is recorded once in each of its member's organizations. */
  private async withOrganizations(pending: AuditEntry[]): Promise<AuditEntry[]> {
    // a plain loop: requests (nearly every row, folded or not) carry their organization, and a
    // flatMap made an empty array for each of them
    const users = new Set<string>();
    let unfiled = 0;
    for (const row of pending) {
      if (isFold(row) || row[1]) continue;
      unfiled++;
      if (row[4]) users.add(row[4]);
    }
    if (unfiled === 0) return pending;
    if (users.size === 0) return pending.filter((row) => isFold(row) || row[1] !== null);
    const organizations = await organizationsOfUsers(this.database.db, [...users]);
    return pending.flatMap((row) => {
      if (isFold(row) || row[1]) return [row];
      const ids = row[4] ? (organizations.get(row[4]) ?? []) : [];
      return ids.map((organizationId): AuditTuple => {
        const copy = [...row] as AuditTuple;
        copy[1] = organizationId;
        return copy;
      });
    });
  }
}
