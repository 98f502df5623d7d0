/**
 * The upkeep of the day-partitioned append-only tables (drizzle/0019_day_partitions.sql), run
 * once across every instance (a claimed turn in `maintenance_claims`, as the audit trail's
 * upkeep): creates each table's day partitions ahead, drops whole days past retention, and
 * deletes what the default partition holds past retention (docs/decisions.md §24).
 */
import type { Logger } from "../logger.ts";
import { PeriodicFlush } from "./batched-writes.ts";
import type { Database } from "./client.ts";
import {
  DAY_MS,
  type DayPartitioned,
  dayOf,
  deleteDefaultRowsBefore,
  dropDayPartitionsBefore,
  ensureDayPartitions,
} from "./queries/day-partitions.ts";
import { claimTurn } from "./queries/maintenance.ts";

const JOB = "day-partitions";

/** The tables, by the name their retention is given under. */
export const DAY_PARTITIONED = {
  quotaUsage: { table: "quota_usage", column: "minute", hasDefault: true },
  idempotencyKeys: { table: "idempotency_keys", column: "created_at", hasDefault: true },
  webhookDeliveries: { table: "webhook_deliveries", column: "created_at", hasDefault: true },
} as const satisfies Record<string, DayPartitioned>;

type TableName = keyof typeof DAY_PARTITIONED;

/** Rows a day is held back for while any of them matches: a delivery still pending is never dropped. */
const KEEP: Partial<Record<TableName, string>> = { webhookDeliveries: "status = 'pending'" };

export interface PartitionUpkeepOptions {
  /** how long each table's rows are needed (ms); a day goes once all of it is older */
  retentionMs: Record<TableName, number>;
  /** how often an instance asks for the turn; 0: only when `run` is called (tests) */
  checkMs?: number;
  /** how long a claimed turn lasts: the job runs about this often across all instances */
  periodMs?: number;
  /** days of partitions created ahead of today */
  aheadDays?: number;
}

export interface PartitionUpkeepReport {
  ran: boolean;
  /** per table: midnights (ms) of the day partitions dropped */
  droppedDays: Partial<Record<TableName, number[]>>;
  /** per table: rows deleted from its default partition */
  deletedDefault: Partial<Record<TableName, number>>;
}

export class PartitionUpkeep {
  private readonly timer: PeriodicFlush;
  private readonly options: Required<PartitionUpkeepOptions>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date,
    options: PartitionUpkeepOptions,
  ) {
    this.options = { checkMs: 5 * 60_000, periodMs: 60 * 60_000, aheadDays: 3, ...options };
    this.timer = new PeriodicFlush(async () => {
      try {
        await this.run();
      } catch (error) {
        this.logger.warn("day partition upkeep failed; the next turn retries", {
          error: String(error),
        });
      }
    }, this.options.checkMs);
  }

  /**
   * One check every `checkMs`, the first one `checkMs` after start: off the start-up path, so
   * a fleet restarting does not stack DDL on its first requests. Until a day is created its
   * rows land in the default partition, and the turn that creates it moves them in.
   */
  start(): void {
    if (this.options.checkMs <= 0) return;
    this.timer.start();
  }

  async stop(): Promise<void> {
    await this.timer.stop(false);
  }

  /** One turn, if this instance wins it. */
  async run(): Promise<PartitionUpkeepReport> {
    const db = this.database.db;
    const now = this.now().getTime();
    const report: PartitionUpkeepReport = { ran: false, droppedDays: {}, deletedDefault: {} };
    if (!(await claimTurn(db, JOB, new Date(now), this.options.periodMs))) return report;
    report.ran = true;
    const ahead = Array.from({ length: this.options.aheadDays + 1 }, (_, i) => now + i * DAY_MS);
    for (const [name, spec] of Object.entries(DAY_PARTITIONED) as [TableName, DayPartitioned][]) {
      await ensureDayPartitions(db, spec, ahead);
      const before = now - this.options.retentionMs[name];
      const dropped = await dropDayPartitionsBefore(db, spec, dayOf(before), KEEP[name]);
      const deleted = await deleteDefaultRowsBefore(db, spec, new Date(before), KEEP[name]);
      if (dropped.length > 0) report.droppedDays[name] = dropped;
      if (deleted > 0) report.deletedDefault[name] = deleted;
    }
    if (Object.keys(report.droppedDays).length + Object.keys(report.deletedDefault).length > 0) {
      this.logger.info("day partition upkeep", {
        droppedDays: Object.fromEntries(
          Object.entries(report.droppedDays).map(([t, days]) => [
            t,
            days.map((d) => new Date(d).toISOString().slice(0, 10)),
          ]),
        ),
        deletedDefault: report.deletedDefault,
      });
    }
    return report;
  }
}
