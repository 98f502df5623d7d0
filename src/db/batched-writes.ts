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
  /** a flush is to follow the running one (`runNext`) */
  private queued = false;

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

  /**
   * A flush now, or right after the running one, which took its rows before these came: a
   * buffer that filled up early is written without waiting for the timer. Calls meanwhile
   * share that one flush.
   */
  runNext(): void {
    if (!this.running) {
      void this.run();
      return;
    }
    if (this.queued) return;
    this.queued = true;
    const next = () => {
      this.queued = false;
      void this.run();
    };
    void this.running.then(next, next);
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
  /** rows handed to `add` (or `admit`), kept or dropped */
  received: number;
  /** rows waiting for the next flush or being written */
  pending: number;
  written: number;
  /** rows refused because the buffer was full (the database away or too slow) */
  dropped: number;
}

export interface BatchOptions<T> {
  name: string;
  /** rows held at most, those being written included */
  capacity: number;
  /** entries one `write` takes at most */
  batchSize: number;
  /** the rows an entry holds (1 unless entries fold several: the audit trail's requests) */
  weight?: (entry: T) => number;
  /** called as a flush takes the pending entries: they must not change any more */
  taken?: () => void;
}

const one = () => 1;

/**
 * A bounded buffer of rows written in batches by `write` (one multi-row statement each). It
 * never grows past `capacity`: when the database is away, the rows that do not fit are dropped
 * and counted rather than held without end. A failed batch goes back to the front and the
 * flush stops until the next turn. An entry may hold several rows (`weight`): a row joins an
 * entry still pending after `admit`, and only a new entry is `push`ed.
 */
export class BoundedBatch<T> {
  private rows: T[] = [];
  /** the rows of every entry not written yet, those of a running write included */
  private held = 0;
  readonly stats: BatchStats = { received: 0, pending: 0, written: 0, dropped: 0 };
  private lastWarning = 0;

  constructor(
    private readonly write: (rows: T[]) => Promise<void>,
    private readonly logger: Logger,
    private readonly options: BatchOptions<T>,
  ) {}

  /** Synchronous and allocation-free beyond the row itself: this runs on every request. */
  add(row: T): void {
    if (this.admit()) this.rows.push(row);
  }

  /** Room for one more row? Counted as held if so, as dropped if not. */
  admit(): boolean {
    this.stats.received++;
    if (this.held >= this.options.capacity) {
      this.stats.dropped++;
      return false;
    }
    this.stats.pending = ++this.held;
    return true;
  }

  /** A new entry for a row `admit` let in. */
  push(entry: T): void {
    this.rows.push(entry);
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
    this.options.taken?.();
    const size = this.options.batchSize;
    const weight = this.options.weight ?? one;
    for (let start = 0; start < taken.length; start += size) {
      const batch = taken.slice(start, start + size);
      try {
        await this.write(batch);
      } catch (error) {
        // the failed batch and those not tried go back to the front, ahead of the rows added
        // meanwhile; they still count against the capacity, so they all fit
        this.rows = taken.slice(start).concat(this.rows);
        this.warn(error);
        return false;
      }
      let written = 0;
      for (const entry of batch) written += weight(entry);
      this.held -= written;
      this.stats.written += written;
      this.stats.pending = this.held;
    }
    return true;
  }

  /** At most one warning a minute: a database away for an hour must not flood the log. */
  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 60_000) return;
    this.lastWarning = now;
    this.logger.warn(`could not write ${this.options.name}; will retry`, {
      error: String(error),
      pending: this.held,
      dropped: this.stats.dropped,
    });
  }
}
