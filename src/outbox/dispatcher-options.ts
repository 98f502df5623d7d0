import type { WebhookSecretBox } from "./secret-box.ts";
import type { Resolve } from "./ssrf.ts";

const SECOND = 1000;
const HOUR = 3_600_000;

/** Delay before retry n (docs/decisions.md §8); after the last one the delivery has failed. */
export const DEFAULT_BACKOFF_MS = [
  5 * SECOND,
  5 * 60 * SECOND,
  30 * 60 * SECOND,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

export interface DispatcherOptions {
  /** retry delays, first retry first; tests shorten them */
  backoffMs: number[];
  /** ±fraction of random spread on each delay, so retries of many deliveries do not align */
  jitter: number;
  /** sends in flight in this process */
  concurrency: number;
  /** sends in flight to one subscription, across all instances */
  perSubscription: number;
  /** per-send timeout (connect to end of body) */
  timeoutMs: number;
  /** how often to look for due work besides NOTIFY wake-ups (retries coming due, missed notifies) */
  pollMs: number;
  /** how long `stop()` lets in-flight sends run before cutting them short */
  shutdownGraceMs: number;
  /** a subscription failing without a single success for this long is disabled */
  disableAfterMs: number;
  /** events (and their deliveries) older than this are deleted once none is pending */
  retentionMs: number;
  /** how often the retention purge runs; the first run comes a minute after start (or sooner) */
  purgeEveryMs: number;
  allowPrivate: boolean;
  resolve?: Resolve;
  /** opens the sealed signing secrets (WEBHOOK_SECRET_KEY); the development key when unset */
  secretBox?: WebhookSecretBox;
  random: () => number;
}

export const defaultDispatcherOptions = (allowPrivate: boolean): DispatcherOptions => ({
  backoffMs: DEFAULT_BACKOFF_MS,
  jitter: 0.2,
  concurrency: 16,
  perSubscription: 4,
  timeoutMs: 10 * SECOND,
  pollMs: SECOND,
  shutdownGraceMs: 10 * SECOND,
  disableAfterMs: 5 * 24 * HOUR,
  retentionMs: 30 * 24 * HOUR,
  purgeEveryMs: HOUR,
  allowPrivate,
  random: Math.random,
});

/**
 * Delay before the next attempt after `attempts` failed ones, spread by ±jitter so retries of
 * many deliveries do not arrive together; undefined once the schedule is used up.
 */
export function retryDelay(
  attempts: number,
  options: Pick<DispatcherOptions, "backoffMs" | "jitter" | "random">,
): number | undefined {
  const base = options.backoffMs[attempts - 1];
  if (base === undefined) return undefined;
  const spread = options.jitter * (2 * options.random() - 1);
  return Math.max(0, Math.round(base * (1 + spread)));
}

/**
 * A duration as people say it, in the largest whole unit: "5 days", "36 hours", "1 minute";
 * the reason a subscription was disabled names its real `disableAfterMs`.
 */
export function describeDuration(ms: number): string {
  const units: [string, number][] = [
    ["day", 24 * HOUR],
    ["hour", HOUR],
    ["minute", 60 * SECOND],
    ["second", SECOND],
  ];
  const [unit, size] = units.find(([, size]) => ms >= size && ms % size === 0) ?? ["ms", 1];
  const count = ms / size;
  if (unit === "ms") return `${ms} ms`;
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}
