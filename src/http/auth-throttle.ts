import type { Headers, Limits } from "../limits/limits.ts";
import { throttleAttempt } from "../limits/throttle.ts";
import { requestMeta } from "./request-context.ts";

/**
 * Runs `attempt` (a credential lookup that throws when the credential is refused) under the
 * guessing throttle of src/limits/throttle.ts, for the client of `request`.
 */
export function throttleAuth<T>(
  limits: Limits,
  request: Request,
  headers: Headers,
  attempt: () => Promise<T>,
  failed?: (error: unknown) => boolean,
): Promise<T> {
  return throttleAttempt(limits, requestMeta(request), headers, attempt, failed);
}
