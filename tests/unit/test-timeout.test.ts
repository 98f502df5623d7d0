import { expect, test } from "bun:test";

/**
 * Guards the per-test timeout (tests/preload.ts, preloaded by bunfig.toml): with Bun's
 * 5 s default this test fails, as every slow PGlite start-up on a loaded machine did. The wait
 * is the point of the test (it measures the runner, not the code), hence a fixed sleep.
 */
test("a test may take longer than Bun's 5 s default", async () => {
  const started = performance.now();
  await Bun.sleep(5_500);
  expect(performance.now() - started).toBeGreaterThanOrEqual(5_000);
});
