/**
 * Writes kept off the request path: collected in memory, written in batches by a timer, and
 * once more at shutdown. The daily quota (src/limits/quota-store.ts, counts folded per minute)
 * and the audit trail (src/auth/audit-trail.ts, rows in a bounded buffer) share the timer.
 */
import type { Logger } from "../logger.ts";

/**
 * Runs `flush` every `ms` (an unref'd timer: it never keeps the process alive) and once more
 * at `stop`. Overlapping calls share the running flush, so a slow database never stacks them.
 */
export class PeriodicFlush {
  private timer?: ReturnType<typeof setInterval>;
  private running?: Promise<void>;

  constructor(
    private readonly flush: () => Promise<void>,
    /** 0: only on demand and at stop */
    private readonly ms: number,
  ) {}

  run(): Promise<void> {
    this.running ??= this.flush().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  start(): void {
    if (this.ms <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.run(), this.ms);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Stops the timer and, unless `final` is false, writes what is left (graceful shutdown). */
  async stop(final = true): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
    if (final) await this.run();
  }
}

export interface BatchStats {
  /** rows handed to `add`, kept or dropped */
  received: number;
  /** rows waiting for the next flush */
  pending: number;
  written: number;
  /** rows refused because the buffer was full (the database away or too slow) */
  dropped: number;
}

/**
 * A bounded buffer of rows written in batches by `write` (one multi-row statement each). It
 * never grows past `capacity`: when the database is away, the rows that do not fit are dropped
 * and counted rather than held without end. A failed batch goes back to the front, as far as
 * room allows, and the flush stops until the next turn.
 */
export class BoundedBatch<T> {
  private rows: T[] = [];
  /** rows taken by the running flush and not written yet */
  private inFlight = 0;
  readonly stats: BatchStats = { received: 0, pending: 0, written: 0, dropped: 0 };
  private lastWarning = 0;

  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    private readonly logger: Logger,
    private readonly options: { name: string; capacity: number; batchSize: number },
  ) {}

  /** Synchronous and allocation-free beyond the row itself: this runs on every request. */
  add(row: T): void {
    this.stats.received++;
    if (this.rows.length + this.inFlight >= this.options.capacity) {
      this.stats.dropped++;
      return;
    }
    this.rows.push(row);
    this.stats.pending = this.rows.length + this.inFlight;
  }

  /**
   * Writes the rows pending now, a batch at a time; stops at the first failure. The pending rows
   * are taken at once and written slice by slice: taking each batch off the front of the
   * buffer (`splice`) moved every row behind it, tens of thousands a second under load. Rows
   * added while it writes wait for the next flush: looping until the buffer was empty wrote
   * back to back under load, a statement of a few dozen rows every few milliseconds, and those
   * statements cost more than the requests they recorded (docs/decisions.md §32).
   */
  async flush(): Promise<void> {
    if (this.rows.length > 0) await this.flushTaken();
  }

  /** Writes until nothing is pending, rows added meanwhile included (shutdown); stops at a failure. */
  async drain(): Promise<void> {
    while (this.rows.length > 0) if (!(await this.flushTaken())) return;
  }

  /** Writes the rows pending now; false when a batch failed (the rest is back in the buffer). */
  private async flushTaken(): Promise<boolean> {
    const taken = this.rows;
    this.rows = [];
    const size = this.options.batchSize;
    for (let start = 0; start < taken.length; start += size) {
      const batch = taken.slice(start, start + size);
      // rows not tried yet still count against the capacity (`add`), as when they stayed in
      // the buffer; the batch being written does not
      this.inFlight = taken.length - start - batch.length;
      try {
        await this.write(batch);
        this.stats.written += batch.length;
      } catch (error) {
        // the failed batch goes back to the front as far as room allows, ahead of the rows
        // not tried yet and those added meanwhile, which are all kept
        const untried = taken.slice(start + size);
        this.inFlight = 0;
        const room = Math.max(0, this.options.capacity - untried.length - this.rows.length);
        const kept = batch.slice(0, room);
        this.stats.dropped += batch.length - kept.length;
        this.rows = kept.concat(untried, this.rows);
        this.stats.pending = this.rows.length;
        this.warn(error);
        return false;
      }
      this.stats.pending = this.rows.length + taken.length - start - batch.length;
    }
    this.inFlight = 0;
    this.stats.pending = this.rows.length;
    return true;
  }

  /** At most one warning a minute: a database away for an hour must not flood the log. */
  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.logger.warn(`could not write ${this.options.name}; will retry`, {
      error: String(error),
      pending: this.rows.length,
      dropped: this.stats.dropped,
    });
  }
}
