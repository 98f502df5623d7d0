import { expect, test } from "bun:test";
import {
  DEFAULT_BACKOFF_MS,
  defaultDispatcherOptions,
  describeDuration,
  retryDelay,
} from "../../src/outbox/dispatcher-options.ts";

/** The dispatcher's defaults (docs/webhooks.md) and the retry delay's edges. */
test("defaults: 16 sends at once, 4 per subscription, 10 s timeout and grace, 1 s poll, 5-day disable, 30-day retention, hourly purge", () => {
  const options = defaultDispatcherOptions(false);
  expect(options).toEqual({
    backoffMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    jitter: 0.2,
    concurrency: 16,
    perSubscription: 4,
    timeoutMs: 10_000,
    pollMs: 1_000,
    shutdownGraceMs: 10_000,
    disableAfterMs: 5 * 24 * 3_600_000,
    retentionMs: 30 * 24 * 3_600_000,
    purgeEveryMs: 3_600_000,
    allowPrivate: false,
    random: Math.random,
  });
  expect(defaultDispatcherOptions(true).allowPrivate).toBe(true);
  expect(DEFAULT_BACKOFF_MS).toHaveLength(7);
});

test("retryDelay: no delay before a first attempt or after the last; rounded; never negative", () => {
  const options = (random: number, jitter = 0.2, backoffMs = [1_000, 2_000]) => ({
    backoffMs,
    jitter,
    random: () => random,
  });
  expect(retryDelay(0, options(0.5)), "attempt numbers start at 1").toBeUndefined();
  expect(retryDelay(1, options(0.5))).toBe(1_000);
  expect(retryDelay(2, options(0.5))).toBe(2_000);
  expect(retryDelay(3, options(0.5))).toBeUndefined();
  expect(retryDelay(1, options(0.75))).toBe(1_100); // +10 %
  expect(retryDelay(1, options(0.25))).toBe(900); // −10 %
  expect(retryDelay(1, options(0.5003, 0.2, [999]))).toBe(999); // 999.1 rounds down
  expect(retryDelay(1, options(0.5013, 0.2, [999]))).toBe(1_000); // 999.5 rounds up
  expect(retryDelay(1, options(0, 1.5)), "a spread past −100 % stops at 0").toBe(0);
  expect(retryDelay(1, options(0.9, 0))).toBe(1_000);
});

test("the disable reason names the configured duration in its largest whole unit", () => {
  expect(describeDuration(5 * 24 * 3_600_000), "the default").toBe("5 days");
  expect(describeDuration(24 * 3_600_000)).toBe("1 day");
  expect(describeDuration(36 * 3_600_000), "not a whole number of days").toBe("36 hours");
  expect(describeDuration(90_000)).toBe("90 seconds");
  expect(describeDuration(60_000)).toBe("1 minute");
  expect(describeDuration(1_500)).toBe("1500 ms");
});
