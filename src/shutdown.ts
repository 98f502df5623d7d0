/**
 * The service's shutdown, one part after the other (src/app.ts lists them). A part still
 * stopping after SLOW_STOP_MS is logged by name, and again every SLOW_STOP_MS, so a shutdown
 * that hangs says on what (docs/operations.md#shutdown).
 */
import type { Logger } from "./logger.ts";

const SLOW_STOP_MS = 5_000;

export type ShutdownStep = [name: string, stop: () => Promise<unknown>];

/**
 * Awaits `work`; while it runs, calls `onSlow` with the time waited every `everyMs` (an unref'd
 * timer: it never keeps the process alive).
 */
export async function watched(
  work: () => Promise<unknown>,
  everyMs: number,
  onSlow: (waitedMs: number) => void,
): Promise<void> {
  const started = Date.now();
  const watch = setInterval(() => onSlow(Date.now() - started), everyMs);
  (watch as { unref?: () => void }).unref?.();
  try {
    await work();
  } finally {
    clearInterval(watch);
  }
}

export async function stopInOrder(logger: Logger, steps: ShutdownStep[]): Promise<void> {
  for (const [step, stop] of steps) {
    await watched(stop, SLOW_STOP_MS, (waitedMs) =>
      logger.warn("shutdown is still waiting", { step, waitedMs }),
    );
  }
}
