import type { Plan } from "../auth/permissions.ts";
import type { Config } from "../config.ts";
import { type RatePolicy, ratePolicy } from "./rate-headers.ts";
import type { BucketRule } from "./token-bucket.ts";

/** Interface B: requests per minute per organization by plan; null: unlimited. */
export const PLAN_PER_MINUTE: Record<Plan, number | null> = {
  FREE: 100,
  PRO: 1000,
  ENTERPRISE: null,
};

const MINUTE = 60_000;

/**
 * Which buckets each kind of request draws from. Known per kind, so the policies (and their
 * header text) are built once, when the limits are.
 */
export function ratePolicies(config: Config["rateLimit"]) {
  const ip: BucketRule = { name: "ip", limit: config.ipPerMin, windowMs: MINUTE };
  const key: BucketRule = { name: "key", limit: config.keyPerMin, windowMs: MINUTE };
  const burst: BucketRule = { name: "burst", limit: config.burstPerSec, windowMs: 1000 };
  const plan = (limit: number | null) =>
    limit === null ? null : ratePolicy([{ name: "org", limit, windowMs: MINUTE }]);
  return {
    ip,
    /** a key, and the IP's bucket still to draw: IP + key + burst (the key's) */
    keyedWithIp: ratePolicy([ip, key, burst]),
    /** a key whose request already drew from its IP */
    keyed: ratePolicy([key, burst]),
    /** no usable key: IP + burst (the IP's) */
    keyless: ratePolicy([ip, burst]),
    /** an /api/v1 request that failed before authentication */
    ipOnly: ratePolicy([ip]),
    /** interface B, per organization */
    plans: {
      FREE: plan(PLAN_PER_MINUTE.FREE),
      PRO: plan(PLAN_PER_MINUTE.PRO),
      ENTERPRISE: plan(PLAN_PER_MINUTE.ENTERPRISE),
    } satisfies Record<Plan, RatePolicy | null>,
  };
}
