import type { Database } from "../db/client.ts";
import { readWithRetry } from "../db/errors.ts";
import { pruneQuotaUsage, type QuotaRow, quotaTotals } from "../db/queries/quota.ts";
import type { Logger } from "../logger.ts";

const MINUTE_MS = 60_000;
const WINDOW_MINUTES = 24 * 60;
/** an organization unseen for this long is forgotten (after its counts are written) */
const IDLE_MS = 10 * MINUTE_MS;

interface Usage {
  /** the window's total in Postgres at the last refresh (every instance's flushed counts) */
  stored: number;
  /** counted here, taken by a running flush, not yet in `stored` */
  flushing: number;
  /** counted here since the last flush began */
  pending: number;
  /** the same requests by minute (start of minute, ms) → count, as they will be written;
   * the latest minute's count stays in `minute`/`minuteCount` until the minute changes or a
   * flush begins (one field increment per request instead of a Map update) */
  minutes: Map<number, number>;
  minute: number;
  minuteCount: number;
  seenAt: number;
}

export interface QuotaCheck {
  allowed: boolean;
  /** requests in the window, this one included when it was counted */
  used: number;
}

/** What the limits need of a daily-quota counter: the store below, or a benchmark's own. */
export interface QuotaCounter {
  /**
   * Counts one request against `limit` (null: unlimited) unless the window is already full;
   * with `consume` false it only reports (GET /health).
   */
  check(
    organizationId: string,
    limit: number | null,
    consume?: boolean,
  ): QuotaCheck | Promise<QuotaCheck>;
  /** writes counts not yet stored and reads every instance's totals */
  sync(): Promise<void>;
}

/**
 * Daily quota usage per organization over a sliding 24 h of per-minute buckets in Postgres.
 * Requests are counted in memory; `sync` (every second, and at shutdown) adds those counts to
 * the buckets and reloads every active organization's total in one statement, so other
 * instances' usage shows within about a second and a request never waits on the database,
 * except the first one of an organization this instance has not seen yet.
 */
export class QuotaStore implements QuotaCounter {
  private readonly usage = new Map<string, Usage>();
  private readonly loading = new Map<string, Promise<Usage>>();
  private syncing?: Promise<void>;
  private lastPrune = 0;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    /** milliseconds since the epoch */
    private readonly now: () => number,
  ) {}

  check(
    organizationId: string,
    limit: number | null,
    consume = true,
  ): QuotaCheck | Promise<QuotaCheck> {
    const usage = this.usage.get(organizationId);
    // the steady state answers synchronously: no database, not even a microtask
    if (usage) return this.count(usage, limit, consume);
    return this.load(organizationId).then((u) => this.count(u, limit, consume));
  }

  private count(usage: Usage, limit: number | null, consume: boolean): QuotaCheck {
    const now = this.now();
    usage.seenAt = now;
    const used = usage.stored + usage.flushing + usage.pending;
    if (limit !== null && used >= limit) return { allowed: false, used };
    if (!consume) return { allowed: true, used };
    usage.pending++;
    const minute = now - (now % MINUTE_MS);
    if (minute !== usage.minute) {
      foldMinute(usage);
      usage.minute = minute;
    }
    usage.minuteCount++;
    return { allowed: true, used: used + 1 };
  }

  /** Writes pending counts and reloads totals; concurrent calls share one run. */
  sync(): Promise<void> {
    this.syncing ??= this.runSync().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async load(organizationId: string): Promise<Usage> {
    let loading = this.loading.get(organizationId);
    if (!loading) {
      loading = readWithRetry(() =>
        quotaTotals(this.database, [organizationId], windowStart(this.now())),
      )
        .then((totals) => {
          const usage = this.usage.get(organizationId) ?? {
            stored: totals.get(organizationId) ?? 0,
            flushing: 0,
            pending: 0,
            minutes: new Map(),
            minute: 0,
            minuteCount: 0,
            seenAt: this.now(),
          };
          this.usage.set(organizationId, usage);
          return usage;
        })
        .finally(() => this.loading.delete(organizationId));
      this.loading.set(organizationId, loading);
    }
    return loading;
  }

  private async runSync(): Promise<void> {
    const rows: QuotaRow[] = [];
    const taken = new Map<Usage, { minutes: Map<number, number>; count: number }>();
    for (const [organizationId, usage] of this.usage) {
      if (usage.pending === 0) continue;
      foldMinute(usage);
      for (const [minute, count] of usage.minutes) {
        rows.push({ organizationId, minute: new Date(minute), count });
      }
      taken.set(usage, { minutes: usage.minutes, count: usage.pending });
      usage.minutes = new Map();
      usage.flushing += usage.pending;
      usage.pending = 0;
    }
    const ids = [...this.usage.keys()];
    if (ids.length === 0) return;
    const now = this.now();
    const since = windowStart(now);
    let totals: Map<string, number>;
    try {
      totals = await quotaTotals(this.database, ids, since, rows);
    } catch (error) {
      if (rows.length === 0) {
        this.logger.warn("could not reload quota usage", { error: String(error) });
        return;
      }
      // keep the counts for the next attempt; nothing is lost while the database is away
      for (const [usage, back] of taken) {
        for (const [minute, count] of back.minutes) {
          usage.minutes.set(minute, (usage.minutes.get(minute) ?? 0) + count);
        }
        usage.pending += back.count;
        usage.flushing -= back.count;
      }
      this.logger.warn("could not record quota usage; will retry", { error: String(error) });
      return;
    }
    for (const id of ids) {
      const usage = this.usage.get(id);
      if (!usage) continue;
      // the totals are the window as it stood before this statement's own write: add that
      usage.stored = (totals.get(id) ?? 0) + countSince(taken.get(usage)?.minutes, since);
      usage.flushing = 0;
      if (usage.pending === 0 && now - usage.seenAt > IDLE_MS) this.usage.delete(id);
    }
    try {
      await this.prune(now);
    } catch (error) {
      this.logger.warn("could not prune quota usage", { error: String(error) });
    }
  }

  /** Drops buckets that left the window, once a minute (any instance may; it is idempotent). */
  private async prune(now: number): Promise<void> {
    if (now - this.lastPrune < MINUTE_MS) return;
    this.lastPrune = now;
    await pruneQuotaUsage(
      this.database,
      new Date(now - (now % MINUTE_MS) - WINDOW_MINUTES * MINUTE_MS),
    );
  }
}

/** The first minute (ms) of the sliding 24 h window at `now`. */
const windowStart = (now: number) => now - (now % MINUTE_MS) - (WINDOW_MINUTES - 1) * MINUTE_MS;

/** Counts of `minutes` (start of minute, ms → count) from `since` on. */
function countSince(minutes: Map<number, number> | undefined, since: number): number {
  let total = 0;
  for (const [minute, count] of minutes ?? []) if (minute >= since) total += count;
  return total;
}

/** Moves the latest minute's running count into the per-minute Map. */
function foldMinute(usage: Usage): void {
  if (usage.minuteCount === 0) return;
  usage.minutes.set(usage.minute, (usage.minutes.get(usage.minute) ?? 0) + usage.minuteCount);
  usage.minuteCount = 0;
}
