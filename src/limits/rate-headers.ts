/**
 * The text of the rate-limit headers. Most responses carry it, so the pieces that
 * repeat (policies, limits, small counts) are built once.
 */
import { type BucketRule, remaining, secondsToFull } from "./token-bucket.ts";

type Headers = Record<string, string | number>;

/**
 * The buckets one kind of request draws from, with the header text that depends only on them,
 * built once when the limits are: the `RateLimit-Policy` field and each bucket's limit.
 */
export interface RatePolicy {
  rules: readonly BucketRule[];
  text: string;
  limitTexts: readonly string[];
  /**
   * The last counts written per bucket and their text: a bucket that stays full (limits far
   * above the traffic) or stays empty (a refused client asking again) writes the same fields
   * request after request, and then they are not built again.
   */
  recent: RecentFields[];
}

interface RecentFields {
  left: number;
  reset: number;
  leftText: string;
  resetText: string;
  /** the `RateLimit` field */
  field: string;
}

export function ratePolicy(rules: BucketRule[]): RatePolicy {
  return {
    rules,
    text: rules.map((r) => `"${r.name}";q=${r.limit};w=${r.windowMs / 1000}`).join(", "),
    limitTexts: rules.map((r) => numberText(r.limit)),
    recent: [],
  };
}

/**
 * `X-RateLimit-*` for the bucket closest to exhaustion (fewest requests left; on a tie the
 * slower to refill), and the IETF draft-11 `RateLimit-Policy` / `RateLimit` fields.
 * `tokens` are the buckets' tokens after this request, in the policy's order.
 */
export function writeRateHeaders(headers: Headers, policy: RatePolicy, tokens: number[]): void {
  const rules = policy.rules;
  let closest = 0;
  let closestLeft = remaining(tokens[0] as number);
  let closestReset = secondsToFull(rules[0] as BucketRule, tokens[0] as number);
  for (let i = 1; i < rules.length; i++) {
    const left = remaining(tokens[i] as number);
    if (left > closestLeft) continue;
    const reset = secondsToFull(rules[i] as BucketRule, tokens[i] as number);
    if (left < closestLeft || reset > closestReset) {
      closest = i;
      closestLeft = left;
      closestReset = reset;
    }
  }
  let recent = policy.recent[closest];
  if (!recent) {
    recent = { left: -1, reset: -1, leftText: "", resetText: "", field: "" };
    policy.recent[closest] = recent;
  }
  if (recent.left !== closestLeft || recent.reset !== closestReset) {
    // updated in place: a miss allocates only the new strings
    recent.left = closestLeft;
    recent.reset = closestReset;
    recent.leftText = numberText(closestLeft);
    recent.resetText = numberText(closestReset);
    recent.field = `"${(rules[closest] as BucketRule).name}";r=${recent.leftText};t=${recent.resetText}`;
  }
  headers["x-ratelimit-limit"] = policy.limitTexts[closest] as string;
  headers["x-ratelimit-remaining"] = recent.leftText;
  headers["x-ratelimit-reset"] = recent.resetText;
  headers["ratelimit-policy"] = policy.text;
  headers.ratelimit = recent.field;
}

/** Every response carries these headers, and most of their counts are small numbers. */
const SMALL_NUMBERS = Array.from({ length: 1024 }, (_, n) => String(n));
export const numberText = (n: number): string =>
  // range-checked first: a read past the array's end takes the engine's slow path
  n >= 0 && n < SMALL_NUMBERS.length && (n | 0) === n ? (SMALL_NUMBERS[n] as string) : String(n);

/** Limits repeat on every response (they come from configuration, plans and overrides). */
const limitTexts = new Map<number, string>();
export function limitText(limit: number): string {
  let text = limitTexts.get(limit);
  if (text === undefined) {
    text = numberText(limit);
    if (limitTexts.size >= 1024) limitTexts.clear(); // bounded: many per-org overrides
    limitTexts.set(limit, text);
  }
  return text;
}
