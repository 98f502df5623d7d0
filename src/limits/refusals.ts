/**
 * The two 429 answers. A refused client tends to keep asking, and each refusal is the same
 * answer again (the same message and Retry-After; for the quota the same limit and count), so
 * each distinct one is built once and thrown again: no Error, stack trace or body object per
 * refused request. Nothing downstream changes a thrown ApiError (the error handler only reads
 * its status, headers and body), which is what makes sharing them safe.
 */
import { ApiError } from "../errors.ts";
import { type BucketRule, secondsToNextToken } from "./token-bucket.ts";

/** An ApiError whose body, built with it, is handed out as is on every answer. */
class Refusal extends ApiError {
  private readonly answer = super.body();
  override body() {
    return this.answer;
  }
}

/** message → Retry-After (seconds) → the 429 */
const rateRefusals = new Map<string, Refusal[]>();
/** longer waits are not kept (a configuration of a few requests a day): built each time */
const MAX_KEPT_WAIT = 3_600;

/**
 * A rate-limit 429: `{ error, retryAfter }` and Retry-After, in whole seconds (≥ 1) until
 * every empty bucket among `rules` (a prefix of the policy's) has a token again.
 */
export function tooMany(message: string, rules: readonly BucketRule[], tokens: number[]): ApiError {
  let retryAfter = 1;
  for (let i = 0; i < rules.length; i++) {
    const left = tokens[i] as number;
    if (left < 1)
      retryAfter = Math.max(retryAfter, secondsToNextToken(rules[i] as BucketRule, left));
  }
  let byWait = rateRefusals.get(message);
  if (!byWait) {
    byWait = [];
    rateRefusals.set(message, byWait);
  }
  const kept = byWait[retryAfter];
  if (kept) return kept;
  const refusal = new Refusal(
    "RATE_LIMITED",
    message,
    undefined,
    { retryAfter },
    { "retry-after": String(retryAfter) },
  );
  if (retryAfter <= MAX_KEPT_WAIT) byWait[retryAfter] = refusal;
  return refusal;
}

/** limit → the last quota 429 answered for it (its `used` is checked before reuse) */
const quotaRefusals = new Map<number, Refusal>();

/** The daily-quota 429 (docs/limits.md): `{ error, limit, used, window: "24h" }` with Retry-After 3600. */
export function quotaExceeded(limit: number, used: number): ApiError {
  const kept = quotaRefusals.get(limit);
  if (kept && kept.extra?.used === used) return kept;
  const refusal = new Refusal(
    "RATE_LIMITED",
    "API quota exceeded",
    undefined,
    { limit, used, window: "24h" },
    { "retry-after": "3600" },
  );
  if (quotaRefusals.size >= 1_024) quotaRefusals.clear(); // bounded: many per-org overrides
  quotaRefusals.set(limit, refusal);
  return refusal;
}
