/**
 * The service's shutdown, one part after the other (src/app.ts lists them). A part still
 * stopping after SLOW_STOP_MS is logged by name, and again every SLOW_STOP_MS, so a shutdown
 * that hangs says on what (docs/operations.md#shutdown).
 */
import type { Logger } from "./logger.ts";

const SLOW_STOP_MS = 5_000;

export type ShutdownStep = [name: string, stop: () => Promise<unknown>];

export async function stopInOrder(logger: Logger, steps: ShutdownStep[]): Promise<void> {
  for (const [step, stop] of steps) {
    const started = Date.now();
    const watch = setInterval(
      () => logger.warn("shutdown is still waiting", { step, waitedMs: Date.now() - started }),
      SLOW_STOP_MS,
    );
    (watch as { unref?: () => void }).unref?.();
    try {
      await stop();
    } finally {
      clearInterval(watch);
    }
  }
}
