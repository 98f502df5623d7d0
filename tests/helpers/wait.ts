/**
 * Waiting in tests is always on a condition with a deadline, never a fixed time: a fixed sleep is
 * too short on a loaded machine and too long on a quiet one. What moves with time uses the
 * injected clock (clock.ts) instead.
 */

/** how often a condition is polled; a short pause between checks, not a wait for an outcome */
const POLL_MS = 20;

/** Polls until `check` is true; fails with `what` once `timeoutMs` has passed. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await Bun.sleep(POLL_MS);
  }
}

/** Polls until `find` answers a value and returns it; fails with `what` after `timeoutMs`. */
export async function eventuallyFound<T>(
  find: () => T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  let value = find();
  await eventually(
    () => {
      value = find();
      return value !== undefined;
    },
    what,
    timeoutMs,
  );
  return value as T;
}
