import type { Database } from "../db/client.ts";
import { errorFields, type Logger } from "../logger.ts";
import {
  type Claim,
  claimDue,
  disableSubscription,
  finishAttempt,
  markSubscriptionFailing,
  markSubscriptionHealthy,
  purgeEvents,
  releaseClaim,
} from "./delivery-store.ts";
import { type DispatcherOptions, describeDuration, retryDelay } from "./dispatcher-options.ts";
import { WEBHOOK_CHANNEL } from "./outbox.ts";
import { signingSecrets } from "./secret-box.ts";
import { sendWebhook } from "./send.ts";

export {
  DEFAULT_BACKOFF_MS,
  type DispatcherOptions,
  defaultDispatcherOptions,
  retryDelay,
} from "./dispatcher-options.ts";

/** a lease outlives the send's own timeout by this much */
const LEASE_MARGIN_MS = 5_000;
/** the first retention purge waits this long after start, off the start-up path */
const FIRST_PURGE_AFTER_MS = 60_000;
/** events deleted per statement, so a long backlog never holds locks for long */
const PURGE_BATCH = 1_000;

/**
 * The outbox worker: claims due deliveries (leases in Postgres, shared fairly between
 * instances), sends them signed, and records the outcome with the next retry time. Wakes on
 * the outbox's NOTIFY, when a send finishes, and on a short poll.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Set<Promise<void>>();
  /** aborts sends still running when the shutdown grace period ends */
  private readonly abort = new AbortController();
  private timer: ReturnType<typeof setInterval> | undefined;
  private purgeTimer: ReturnType<typeof setTimeout> | undefined;
  /** the running purge, if any; stop() waits for it */
  private purging: Promise<unknown> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** the running claim loop, if any; stop() waits for it so no claim lands after */
  private claiming: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly now: () => Date,
    private readonly options: DispatcherOptions,
  ) {}

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(WEBHOOK_CHANNEL, () => this.wake());
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.wake();
    this.schedulePurge(Math.min(FIRST_PURGE_AFTER_MS, this.options.purgeEveryMs));
  }

  /**
   * Deletes events older than the retention period whose deliveries are all settled
   * (delivered or failed), with those deliveries; in batches. Any instance may run it.
   */
  async purge(): Promise<number> {
    const before = new Date(this.now().getTime() - this.options.retentionMs);
    let purged = 0;
    for (;;) {
      const batch = await purgeEvents(this.database.db, before, PURGE_BATCH);
      purged += batch;
      if (batch < PURGE_BATCH || this.stopped) break;
    }
    if (purged > 0) {
      this.logger.info("old webhook events purged", {
        events: purged,
        before: before.toISOString(),
      });
    }
    return purged;
  }

  private schedulePurge(afterMs: number): void {
    this.purgeTimer = setTimeout(() => {
      this.purging = this.purge()
        .catch((error) => this.logger.warn("webhook event purge failed", errorFields(error)))
        .finally(() => {
          this.purging = undefined;
          if (!this.stopped) this.schedulePurge(this.options.purgeEveryMs);
        });
    }, afterMs);
    (this.purgeTimer as { unref?: () => void }).unref?.();
  }

  /** Stops claiming, lets in-flight sends finish (bounded), and gives back the ones cut short. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.purgeTimer);
    await this.unlisten?.().catch(() => {});
    await this.claiming;
    await this.purging;
    const all = Promise.allSettled([...this.inFlight]);
    const grace = new Promise((resolve) => setTimeout(resolve, this.options.shutdownGraceMs));
    const finished = await Promise.race([all.then(() => true), grace.then(() => false)]);
    if (!finished) {
      this.abort.abort();
      await all;
    }
  }

  /** Claims as much due work as there are free slots; coalesces concurrent wake-ups. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.fill()
      .catch((error) => this.logger.warn("webhook claim failed", errorFields(error)))
      .finally(() => {
        this.claiming = undefined;
        // a wake-up that came after the loop's last check (while `claiming` was still set)
        // only raised `again`: claim for it now rather than at the next poll
        if (this.again) this.wake();
      });
  }

  private async fill(): Promise<void> {
    do {
      this.again = false;
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0 || this.stopped) return;
      const now = this.now();
      const claims = await claimDue(this.database.db, {
        now,
        // a send never outlives its timeout, so a lease this long is only ever seen expired
        // when the instance holding it has died
        leaseUntil: new Date(now.getTime() + this.options.timeoutMs + LEASE_MARGIN_MS),
        limit: free,
        perSubscription: this.options.perSubscription,
      });
      for (const claim of claims) this.track(this.attempt(claim));
      if (claims.length === free) this.again = true;
    } while (this.again && !this.stopped);
  }

  private track(work: Promise<void>) {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.wake();
    });
  }

  private async attempt(claim: Claim): Promise<void> {
    const db = this.database.db;
    try {
      const target = claim;
      if (!target.active) {
        await finishAttempt(db, claim, {
          status: "failed",
          nextAttemptAt: null,
          lastError: "Subscription disabled",
          attempts: claim.attempts - 1,
        });
        return;
      }
      const secrets = await signingSecrets(this.options.secretBox, target, this.now());
      const result = await sendWebhook({
        url: target.url,
        secrets,
        webhookId: claim.id,
        payload: target.payload,
        timeoutMs: this.options.timeoutMs,
        allowPrivate: this.options.allowPrivate,
        resolve: this.options.resolve,
        signal: this.abort.signal,
      });
      if (result.kind === "aborted") {
        await releaseClaim(db, claim);
        return;
      }
      const now = this.now();
      if (result.kind === "delivered") {
        const mine = await finishAttempt(db, claim, {
          status: "delivered",
          deliveredAt: now,
          nextAttemptAt: null,
          lastStatusCode: result.status,
          lastError: null,
        });
        // ends a failing streak; the common healthy case costs no write
        if (mine && target.failingSince) await markSubscriptionHealthy(db, target.subscriptionId);
        return;
      }
      if (result.status === 410) {
        await finishAttempt(db, claim, {
          status: "failed",
          nextAttemptAt: null,
          lastStatusCode: 410,
          lastError: "410 Gone: the subscription was disabled",
        });
        await disableSubscription(db, target.subscriptionId, "Receiver answered 410 Gone", now);
        this.logger.warn("webhook subscription disabled", {
          subscriptionId: target.subscriptionId,
          reason: "410 Gone",
        });
        return;
      }
      const delay = retryDelay(claim.attempts, this.options);
      await finishAttempt(db, claim, {
        status: delay === undefined ? "failed" : "pending",
        nextAttemptAt: delay === undefined ? null : new Date(now.getTime() + delay),
        lastStatusCode: result.status ?? null,
        lastError: result.error,
      });
      const since = await markSubscriptionFailing(db, target.subscriptionId, now);
      if (since && now.getTime() - since.getTime() >= this.options.disableAfterMs) {
        const duration = describeDuration(this.options.disableAfterMs);
        await disableSubscription(db, target.subscriptionId, `Failing for ${duration}`, now);
        this.logger.warn("webhook subscription disabled", {
          subscriptionId: target.subscriptionId,
          reason: `failing for ${duration}`,
        });
      }
    } catch (error) {
      // the lease expires and another attempt follows; nothing is lost
      this.logger.error("webhook attempt failed unexpectedly", {
        deliveryId: claim.id,
        ...errorFields(error),
      });
    }
  }
}
