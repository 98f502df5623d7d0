import type { Plan } from "../auth/permissions.ts";
import type { Headers, QuotaOwner } from "./limits.ts";
import type { QuotaCheck } from "./quota-store.ts";
import { limitText, numberText } from "./rate-headers.ts";

/** Requests per sliding 24 h by plan when the organization has no override; null: unlimited. */
export const PLAN_DAILY_QUOTA: Record<Plan, number | null> = {
  FREE: 1_000,
  PRO: 100_000,
  ENTERPRISE: null,
};

/** The organization's daily quota: unlimited flag, then its own number, then the plan's. */
export function dailyQuota(organization: QuotaOwner): number | null {
  if (organization.unlimitedQuota) return null;
  return organization.dailyQuota ?? PLAN_DAILY_QUOTA[organization.plan];
}

export function writeQuotaHeaders(headers: Headers, limit: number | null, check: QuotaCheck) {
  headers["x-quota-limit"] = limit === null ? "unlimited" : limitText(limit);
  headers["x-quota-used"] = numberText(check.used);
  headers["x-quota-remaining"] =
    limit === null ? "unlimited" : numberText(Math.max(0, limit - check.used));
}
