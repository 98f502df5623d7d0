import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { DAYS_LEFT, keyEvents, keyPayload } from "./events.ts";
import { claimDueNotices } from "./queries.ts";

const BATCH = 100;
const DAY_MS = 86_400_000;
const NEXT_POINT_DAYS: Record<string, number> = { "30d": 7, "7d": 1, "1d": 0 };

function overtaken(point: string, expiresAt: Date | null, now: Date): boolean {
  const next = NEXT_POINT_DAYS[point];
  if (next === undefined || !expiresAt) return false;
  return expiresAt.getTime() - now.getTime() <= next * DAY_MS;
}

/**
 * Sends the expiry warnings of API keys: `api_key.expiring` at 30, 7 and 1 days before a
 * key's expiry and `api_key.expired` at it. The schedule is rows in Postgres
 * (api_key_notices), claimed by whichever instance sweeps first, in the transaction that
 * writes the events to the outbox: each is sent once however many instances run, and a
 * restart or a late instance catches up on what fell due meanwhile (docs/decisions.md §18).
 */
export class ExpiryNotices {
  private timer?: ReturnType<typeof setInterval>;
  private running?: Promise<number>;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date,
    /** 5 s: one indexed query that usually finds nothing */
    private readonly intervalMs = 5_000,
  ) {}

  /** Sweeps every `intervalMs`; the first sweep runs at once. */
  start(): void {
    void this.sweepSafely();
    this.timer = setInterval(() => void this.sweepSafely(), this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async sweepSafely(): Promise<void> {
    if (this.running) return;
    try {
      this.running = this.sweep();
      await this.running;
    } catch (error) {
      this.logger.warn("expiry warning sweep failed", { error: String(error) });
    } finally {
      this.running = undefined;
    }
  }

  /** Sends every warning due by now; returns how many events were written. */
  async sweep(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = this.now();
      const batch = await this.database.db.transaction(async (tx) => {
        const claimed = await claimDueNotices(tx, now, BATCH);
        for (const { point, key } of claimed) {
          // revoked or replaced since it was scheduled: claimed, so never looked at again
          if (key.revokedAt || key.rotatedAt) continue;
          // a warning overtaken by the next one (an instance down for days) is dropped, not sent late
          if (overtaken(point, key.expiresAt, now)) continue;
          const input = { organizationId: key.organizationId, now };
          const daysLeft = DAYS_LEFT[point];
          if (daysLeft) {
            await keyEvents.expiring.record(tx, {
              ...input,
              data: { apiKey: keyPayload(key), daysLeft },
            });
          } else {
            await keyEvents.expired.record(tx, { ...input, data: { apiKey: keyPayload(key) } });
          }
          sent++;
        }
        return claimed.length;
      });
      if (batch < BATCH) return sent;
    }
  }
}
