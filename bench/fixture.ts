/**
 * What both rate-limit benches share: a configuration whose limits never refuse (the benches
 * measure the cost of checking), one organization with an admin's API key, and the few
 * statistics they print.
 */
import type { OrgitApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";
import type { QuotaCheck, QuotaCounter } from "../src/limits/quota-store.ts";
import type { BucketRule, RateLimiter, Taken } from "../src/limits/token-bucket.ts";

export const benchConfig = loadConfig({
  ADMIN_TOKEN: "bench-operator-token-0123456789",
  LOG_LEVEL: "silent",
  RATE_LIMIT_IP_PER_MIN: "999999999",
  RATE_LIMIT_KEY_PER_MIN: "999999999",
  RATE_LIMIT_BURST_PER_SEC: "999999999",
});

/**
 * The headers-only side's buckets: always the same tokens, nothing stored or counted. With
 * them and `FixedQuota`, an app writes the contract's eight headers and their text as usual,
 * but limits nothing: what those headers cost on their own.
 */
export class FixedBuckets implements RateLimiter {
  private readonly answers = new Map<readonly BucketRule[], Taken>();
  take(rules: readonly BucketRule[]): Taken {
    let taken = this.answers.get(rules);
    if (!taken) {
      taken = { allowed: true, tokens: rules.map((rule) => rule.limit - 1) };
      this.answers.set(rules, taken);
    }
    return taken;
  }
}

/** The headers-only side's quota: a running count in a field, never stored or shared. */
export class FixedQuota implements QuotaCounter {
  private used = 0;
  check(): QuotaCheck {
    return { allowed: true, used: ++this.used };
  }
  async sync(): Promise<void> {}
}

/** Creates the organization (a numeric daily quota, so its counting path runs) and a key. */
export async function provisionKey(
  app: OrgitApp,
): Promise<{ secret: string; organizationId: string }> {
  const { operator, apiKeys } = app.services;
  const organization = await operator.createOrganization({
    name: "Bench",
    plan: "ENTERPRISE",
    dailyQuota: 1_000_000_000,
  });
  const user = await operator.createUser({
    email: "bench@example.com",
    firstName: "Bench",
    lastName: "Mark",
  });
  await operator.addMember({ organizationId: organization.id, userId: user.id, role: "admin" });
  const { secret } = await apiKeys.createApiKey({
    organizationId: organization.id,
    userId: user.id,
    name: "bench",
    scopes: ["equipment:read"],
    expiresIn: "NEVER",
  });
  return { secret, organizationId: organization.id };
}

export const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
export const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
/** how far apart identical apps or servers are: the benches' noise floor */
export const spread = (xs: number[]) => Math.max(...xs) / Math.min(...xs) - 1;

/** The benches' three sides: no limits, the contract's headers only, the real limits. */
export type Side = "bare" | "headers" | "limited";
export const SIDES: Side[] = ["bare", "headers", "limited"];

/**
 * Figures of several instances a side, sample by sample (a block of requests or a round of
 * load): each sample's throughput lost between sides, and each instance's running total.
 */
export class SideFigures {
  private readonly totals: number[];
  private readonly lost = {
    limited: [] as number[],
    headers: [] as number[],
    limiting: [] as number[],
  };

  constructor(private readonly perSide: number) {
    this.totals = new Array(SIDES.length * perSide).fill(0);
  }

  /** One sample: each instance's time (any unit), the sides in the order of SIDES. */
  add(times: number[]): void {
    times.forEach((time, i) => {
      this.totals[i] = (this.totals[i] as number) + time;
    });
    const [bare, headers, limited] = this.sides(times).map(sum) as [number, number, number];
    this.lost.limited.push(1 - bare / limited);
    this.lost.headers.push(1 - bare / headers);
    this.lost.limiting.push(1 - headers / limited);
  }

  private sides(xs: number[]): number[][] {
    return SIDES.map((_, s) => xs.slice(s * this.perSide, (s + 1) * this.perSide));
  }

  /**
   * Prints each side's mean, the median losses and the noise floor. `toMicros` turns an
   * instance's total into microseconds a request; `samples` and `instances` name them.
   */
  report(toMicros: (total: number) => number, unit: string, samples: string, instances: string) {
    const micros = this.sides(this.totals.map(toMicros));
    const labels = ["bare route", "headers only", "limiter + quota"];
    micros.forEach((times, s) => {
      const mean = (sum(times) / this.perSide).toFixed(1).padStart(7);
      console.log(`  ${(labels[s] as string).padEnd(18)}${mean} ${unit}`);
    });
    console.log(
      `  throughput lost to the limiter + quota: ${percent(median(this.lost.limited))} (target < 10%; median of ${samples})`,
    );
    console.log(
      `    the contract's eight headers alone, with nothing limited behind them: ${percent(median(this.lost.headers))}`,
    );
    console.log(
      `    the buckets and the quota count on top of those headers: ${percent(median(this.lost.limiting))}`,
    );
    const floor = SIDES.map((side, s) => `${percent(spread(micros[s] as number[]))} (${side})`);
    console.log(`  noise floor: identical ${instances} differ by up to ${floor.join(", ")}`);
  }
}
