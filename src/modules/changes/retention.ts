import type { Database } from "../../db/client.ts";
import { errorFields, type Logger } from "../../logger.ts";
import { foldTicketCounts, pruneChangesBatch } from "./retention-queries.ts";

/** Tombstones (and superseded changes) are kept this long (docs/decisions.md §12). */
export const CHANGE_RETENTION_MS = 30 * 86_400_000;
/** changes looked at per statement, so a long backlog never holds locks for long */
const BATCH = 1_000;
/** batches per run at most; the next run goes on from where this one stopped */
const MAX_BATCHES = 50;

/**
 * The change feed's retention: every `everyMs`, one instance (whichever claims the
 * change_retention row) removes what is older than 30 days and no longer needed, a batch at a
 * time, never in one large DELETE. The same run folds the per-session ticket counters.
 */
export class ChangeRetention {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  /** Runs batches until nothing old is left to look at; null when another instance held the claim. */
  async run(): Promise<{ scanned: number; removed: number } | null> {
    const before = new Date(this.now().getTime() - CHANGE_RETENTION_MS);
    const total = { scanned: 0, removed: 0 };
    for (let i = 0; i < MAX_BATCHES && !this.stopped; i++) {
      const batch = await pruneChangesBatch(this.database.db, before, BATCH);
      if (batch === null) return i === 0 ? null : total;
      total.scanned += batch.scanned;
      total.removed += batch.removed;
      if (batch.scanned < BATCH) break;
    }
    if (total.removed > 0) {
      this.logger.info("old changes removed", { ...total, before: before.toISOString() });
    }
    for (let i = 0; i < MAX_BATCHES && !this.stopped; i++) {
      if ((await foldTicketCounts(this.database.db, BATCH)) < BATCH) break;
    }
    return total;
  }

  start(everyMs: number): void {
    if (everyMs <= 0) return;
    this.timer = setTimeout(() => {
      this.running = this.run()
        .catch((error) => this.logger.warn("change retention failed", errorFields(error)))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.start(everyMs);
        });
    }, everyMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
