import { describe, expect, test } from "bun:test";
import type { Headers } from "../../src/limits/limits.ts";
import { dailyQuota, PLAN_DAILY_QUOTA, writeQuotaHeaders } from "../../src/limits/quota.ts";

/** src/limits/quota.ts: the daily quota of an organization, and its three headers. */

describe("daily quota numbers and headers", () => {
  const org = (over: Partial<Parameters<typeof dailyQuota>[0]> = {}) => ({
    id: "o",
    plan: "PRO" as const,
    dailyQuota: null,
    unlimitedQuota: false,
    ...over,
  });

  test("plans: FREE 1,000, PRO 100,000, ENTERPRISE unlimited", () => {
    expect(PLAN_DAILY_QUOTA).toEqual({ FREE: 1_000, PRO: 100_000, ENTERPRISE: null });
    expect(dailyQuota(org({ plan: "FREE" }))).toBe(1_000);
    expect(dailyQuota(org())).toBe(100_000);
    expect(dailyQuota(org({ plan: "ENTERPRISE" }))).toBeNull();
  });

  test("the organization's own number wins over the plan, the unlimited flag over both", () => {
    expect(dailyQuota(org({ dailyQuota: 5 }))).toBe(5);
    expect(dailyQuota(org({ plan: "ENTERPRISE", dailyQuota: 7 }))).toBe(7);
    expect(dailyQuota(org({ dailyQuota: 0 })), "0 is a quota, not a missing one").toBe(0);
    expect(dailyQuota(org({ dailyQuota: 5, unlimitedQuota: true }))).toBeNull();
  });

  test("headers: limit, used and remaining; never a negative remainder; unlimited spelled out", () => {
    const headers: Headers = {};
    writeQuotaHeaders(headers, 100_000, { allowed: true, used: 1 });
    expect(headers).toEqual({
      "x-quota-limit": "100000",
      "x-quota-used": "1",
      "x-quota-remaining": "99999",
    });
    writeQuotaHeaders(headers, 10, { allowed: false, used: 12 });
    expect(headers).toEqual({
      "x-quota-limit": "10",
      "x-quota-used": "12",
      "x-quota-remaining": "0",
    });
    writeQuotaHeaders(headers, null, { allowed: true, used: 7 });
    expect(headers).toEqual({
      "x-quota-limit": "unlimited",
      "x-quota-used": "7",
      "x-quota-remaining": "unlimited",
    });
  });
});
