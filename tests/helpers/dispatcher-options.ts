import type { DispatcherOptions } from "../../src/outbox/dispatcher.ts";

/**
 * Dispatcher options for tests that drive WebhookDispatcher directly: short timeouts, no
 * jitter, a fixed random, private receivers allowed. Each suite sets its own poll interval.
 */
export const testDispatcherOptions = (
  overrides: Partial<DispatcherOptions> & Pick<DispatcherOptions, "pollMs">,
): DispatcherOptions => ({
  backoffMs: [1_000, 2_000],
  jitter: 0,
  concurrency: 4,
  perSubscription: 4,
  timeoutMs: 2_000,
  shutdownGraceMs: 2_000,
  disableAfterMs: 5 * 86_400_000,
  retentionMs: 86_400_000,
  purgeEveryMs: 3_600_000,
  allowPrivate: true,
  random: () => 0.5,
  ...overrides,
});
