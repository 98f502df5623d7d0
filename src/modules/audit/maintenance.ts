/**
 * The audit trail's upkeep, run once across every instance (a claimed turn in
 * `maintenance_claims`): creates day partitions ahead, drops whole partitions older than the
 * longest retention, and removes the rows shorter plans no longer keep in small batches
 * (docs/decisions.md §15).
 */
import { PeriodicFlush } from "../../db/batched-writes.ts";
import type { Database } from "../../db/client.ts";
import { deleteExpiredAuditBatch, deleteExpiredKeyUsage } from "../../db/queries/audit-log.ts";
import {
  DAY_MS,
  dayOf,
  dropDayPartitionsBefore,
  ensureDayPartitions,
} from "../../db/queries/audit-partitions.ts";
import { claimTurn } from "../../db/queries/maintenance.ts";
import type { Logger } from "../../logger.ts";
import { AUDIT_RETENTION_DAYS } from "./service.ts";

const JOB = "audit-log";

export interface AuditMaintenanceOptions {
  /** how often an instance asks for the turn; 0: only when `run` is called (tests) */
  checkMs?: number;
  /** how long a claimed turn lasts: the job runs about this often across all instances */
  periodMs?: number;
  /** days of partitions created ahead of today */
  aheadDays?: number;
  /** rows per DELETE statement, and statements per plan per turn */
  deleteBatch?: number;
  maxBatches?: number;
}

export interface MaintenanceReport {
  ran: boolean;
  /** midnights (ms) of the day partitions dropped */
  droppedDays: number[];
  /** entries (events and requests) removed from kept partitions, by plan */
  deleted: Record<string, number>;
}

export class AuditMaintenance {
  private readonly timer: PeriodicFlush;
  private readonly options: Required<AuditMaintenanceOptions>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date,
    options: AuditMaintenanceOptions = {},
  ) {
    this.options = {
      checkMs: 5 * 60_000,
      periodMs: 60 * 60_000,
      aheadDays: 3,
      deleteBatch: 5_000,
      maxBatches: 200,
      ...options,
    };
    this.timer = new PeriodicFlush(async () => {
      try {
        await this.run();
      } catch (error) {
        this.logger.warn("audit log maintenance failed; the next turn retries", {
          error: String(error),
        });
      }
    }, this.options.checkMs);
  }

  /** The first turn at once (in the background), then one check every `checkMs`. */
  start(): void {
    if (this.options.checkMs <= 0) return;
    this.timer.start();
    void this.timer.run();
  }

  async stop(): Promise<void> {
    // no final turn: upkeep is not worth delaying a shutdown
    await this.timer.stop(false);
  }

  /** One turn, if this instance wins it. */
  async run(): Promise<MaintenanceReport> {
    const db = this.database.db;
    const now = this.now();
    const report: MaintenanceReport = { ran: false, droppedDays: [], deleted: {} };
    if (!(await claimTurn(db, JOB, now, this.options.periodMs))) return report;
    report.ran = true;
    const today = dayOf(now.getTime());
    const days = Array.from({ length: this.options.aheadDays + 1 }, (_, i) => today + i * DAY_MS);
    await ensureDayPartitions(db, days);
    const longest = Math.max(...Object.values(AUDIT_RETENTION_DAYS));
    // a partition goes once its whole day is older than the longest retention
    const firstKept = dayOf(now.getTime() - longest * DAY_MS);
    report.droppedDays = await dropDayPartitionsBefore(db, firstKept);
    // the counts per key and hour go with the rows they count, to the hour
    await deleteExpiredKeyUsage(db, new Date(firstKept));
    for (const [plan, keep] of Object.entries(AUDIT_RETENTION_DAYS)) {
      if (keep === longest) continue;
      const before = new Date(now.getTime() - keep * DAY_MS);
      let deleted = 0;
      for (let batch = 0; batch < this.options.maxBatches; batch++) {
        const n = await deleteExpiredAuditBatch(
          db,
          plan as keyof typeof AUDIT_RETENTION_DAYS,
          before,
          this.options.deleteBatch,
        );
        deleted += n.entries;
        if (n.rows < this.options.deleteBatch) break;
      }
      report.deleted[plan] = deleted;
      await deleteExpiredKeyUsage(db, before, plan as keyof typeof AUDIT_RETENTION_DAYS);
    }
    if (report.droppedDays.length > 0 || Object.values(report.deleted).some((n) => n > 0)) {
      this.logger.info("audit log maintenance", {
        droppedDays: report.droppedDays.map((d) => new Date(d).toISOString().slice(0, 10)),
        deleted: report.deleted,
      });
    }
    return report;
  }
}
