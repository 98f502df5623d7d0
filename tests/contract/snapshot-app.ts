import { manualClock } from "../helpers/clock.ts";
import { type DriverName, useTestApp } from "../helpers/harness.ts";

/**
 * The app the answer snapshots are taken on: a fixed clock (advanced by hand) and limits so
 * roomy that no bucket refuses, so every byte of an answer is the same on every run.
 */
export function snapshotApp(driver: DriverName) {
  const clock = manualClock(Date.UTC(2026, 0, 15, 9, 30, 0, 0));
  const { app, make } = useTestApp(driver, {
    now: clock.now,
    env: {
      RATE_LIMIT_IP_PER_MIN: "100000",
      RATE_LIMIT_KEY_PER_MIN: "100000",
      RATE_LIMIT_BURST_PER_SEC: "100000",
    },
  });
  return { clock, app, make };
}
