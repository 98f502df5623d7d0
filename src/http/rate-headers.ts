/**
 * The text of the rate-limit headers. Every /api/v1 response carries it, so the pieces that
 * repeat (small counts, limits, policies) are cached.
 */
import { type BucketResult, remaining, secondsToFull } from "./token-bucket.ts";

type Headers = Record<string, string | number>;

/**
 * `X-RateLimit-*` for the bucket closest to exhaustion (fewest requests left; on a tie the
 * slower to refill), and the IETF draft-11 `RateLimit-Policy` / `RateLimit` fields.
 */
export function writeRateHeaders(headers: Headers, results: BucketResult[]): void {
  let closest = results[0] as BucketResult;
  let closestLeft = remaining(closest);
  for (let i = 1; i < results.length; i++) {
    const result = results[i] as BucketResult;
    const left = remaining(result);
    if (
      left < closestLeft ||
      (left === closestLeft && secondsToFull(result) > secondsToFull(closest))
    ) {
      closest = result;
      closestLeft = left;
    }
  }
  const left = numberText(closestLeft);
  const reset = numberText(secondsToFull(closest));
  headers["x-ratelimit-limit"] = limitText(closest.limit);
  headers["x-ratelimit-remaining"] = left;
  headers["x-ratelimit-reset"] = reset;
  headers["ratelimit-policy"] = policyText(results);
  headers.ratelimit = `"${closest.name}";r=${left};t=${reset}`;
}

/**
 * Every response carries these headers, so their text is cached: the policy field depends only
 * on which buckets applied (a handful of combinations), and most counts are small numbers.
 */
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

interface Policy {
  results: { name: string; limit: number; windowMs: number }[];
  text: string;
}
const policies: Policy[] = [];
/** the policy of the previous call: nearly every request repeats it */
let lastPolicy: Policy | undefined;

const samePolicy = (policy: Policy, results: BucketResult[]) => {
  if (policy.results.length !== results.length) return false;
  for (let i = 0; i < results.length; i++) {
    const a = policy.results[i] as BucketResult;
    const b = results[i] as BucketResult;
    if (a.name !== b.name || a.limit !== b.limit || a.windowMs !== b.windowMs) return false;
  }
  return true;
};

function policyText(results: BucketResult[]): string {
  if (lastPolicy && samePolicy(lastPolicy, results)) return lastPolicy.text;
  for (const policy of policies) {
    if (samePolicy(policy, results)) {
      lastPolicy = policy;
      return policy.text;
    }
  }
  const text = results.map((r) => `"${r.name}";q=${r.limit};w=${r.windowMs / 1000}`).join(", ");
  // bounded: limits come from configuration and plans, so only a few combinations exist
  if (policies.length < 64) {
    policies.push({
      results: results.map(({ name, limit, windowMs }) => ({ name, limit, windowMs })),
      text,
    });
  }
  return text;
}
