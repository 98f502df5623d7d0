import type { Plan } from "../auth/permissions.ts";
import type { Config } from "../config.ts";
import type { ClientBucket, KeyedBucket, Surface } from "./limits.ts";
import { type RatePolicy, ratePolicy } from "./rate-headers.ts";
import type { BucketRule } from "./token-bucket.ts";

/** The organization's plan limit: requests per minute per organization; null: unlimited. */
export const PLAN_PER_MINUTE: Record<Plan, number | null> = {
  FREE: 100,
  PRO: 1000,
  ENTERPRISE: null,
};

const MINUTE = 60_000;
const PLANS: readonly Plan[] = ["FREE", "PRO", "ENTERPRISE"];

/** What an authenticated request of one plan draws: the buckets, and whose each one is. */
export interface KeyedPolicy extends RatePolicy {
  readonly kinds: readonly KeyedBucket[];
  /** the IP bucket is drawn too (always first): an empty one refuses as the per-IP limit */
  readonly withIp: boolean;
  /** where the key's own buckets (key, burst) are: an empty one refuses as the key's limit */
  readonly keyBuckets: readonly number[];
}

/** A surface's policies, built once per surface (their header text with them). */
export interface SurfacePolicies {
  readonly anonymous: RatePolicy | null;
  readonly failed: RatePolicy | null;
  readonly keyed: Record<Plan, KeyedPolicy | null>;
  readonly quota: Surface["quota"];
}

/** The bucket sizes from configuration, and each surface's policies built from them. */
export function ratePolicies(config: Config["rateLimit"]) {
  const ip: BucketRule = { name: "ip", limit: config.ipPerMin, windowMs: MINUTE };
  const key: BucketRule = { name: "key", limit: config.keyPerMin, windowMs: MINUTE };
  const burst: BucketRule = { name: "burst", limit: config.burstPerSec, windowMs: 1000 };
  const org = (plan: Plan): BucketRule | null => {
    const limit = PLAN_PER_MINUTE[plan];
    return limit === null ? null : { name: "org", limit, windowMs: MINUTE };
  };
  const clientRules: Record<ClientBucket, BucketRule> = { ip, burst };
  const clientPolicy = (buckets: readonly ClientBucket[]) => {
    if (buckets.length === 0) return null;
    // an empty first bucket blocks the client (IpBlocks): it must be the IP's
    if (buckets[0] !== "ip") throw new Error(`a client's buckets start with "ip": ${buckets}`);
    return ratePolicy(buckets.map((b) => clientRules[b]));
  };
  const keyedPolicy = (buckets: readonly KeyedBucket[], plan: Plan): KeyedPolicy | null => {
    const planRule = org(plan);
    const keyedRules: Record<KeyedBucket, BucketRule | null> = { ip, key, burst, plan: planRule };
    const kinds = buckets.filter((b) => keyedRules[b] !== null);
    if (kinds.length === 0) return null;
    if (kinds.indexOf("ip") > 0) throw new Error(`the IP bucket comes first: ${buckets}`);
    return {
      ...ratePolicy(kinds.map((b) => keyedRules[b] as BucketRule)),
      kinds,
      withIp: kinds[0] === "ip",
      keyBuckets: kinds.flatMap((b, i) => (b === "key" || b === "burst" ? [i] : [])),
    };
  };
  return {
    /** the per-IP bucket alone: a client refused a moment ago (IpBlocks) */
    ipOnly: ratePolicy([ip]),
    ip,
    surface(surface: Surface): SurfacePolicies {
      const keyed = {} as Record<Plan, KeyedPolicy | null>;
      for (const plan of PLANS) keyed[plan] = keyedPolicy(surface.keyed, plan);
      return {
        anonymous: clientPolicy(surface.anonymous),
        failed: clientPolicy(surface.failed),
        keyed,
        quota: surface.quota,
      };
    },
  };
}
