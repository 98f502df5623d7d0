import { describe, expect, test } from "bun:test";
import { forbidden, unauthenticated } from "../../src/errors.ts";
import { surfaceOf } from "../../src/http/surfaces.ts";
import { andThen, type Headers, isAuthFailure, noLimits } from "../../src/limits/limits.ts";

/** src/limits/limits.ts: the helpers every step uses, and the no-op twin that limits nothing. */

describe("Limits helpers and noLimits", () => {
  test("andThen stays synchronous for a value and chains a promise", async () => {
    expect(andThen(3, (n) => n + 1)).toBe(4);
    const chained = andThen(Promise.resolve(3), (n) => n + 1);
    expect(chained).toBeInstanceOf(Promise);
    expect(await chained).toBe(4);
  });

  test("only a 401 counts as a failed authentication", () => {
    expect(isAuthFailure(unauthenticated("Invalid API key"))).toBe(true);
    expect(isAuthFailure(forbidden("Missing scope: tickets:read"))).toBe(false);
    expect(isAuthFailure(new Error("Invalid API key"))).toBe(false);
  });

  test("noLimits answers every question with nothing, writes nothing and refuses nothing", async () => {
    const headers: Headers = {};
    const key = {
      apiKey: { id: "k" },
      organization: { id: "o", plan: "FREE" as const, dailyQuota: 0, unlimitedQuota: false },
    };
    const surface = surfaceOf("/api/v1/whoami", true);
    expect(noLimits.limit(surface, "1.2.3.4", undefined, headers)).toBeUndefined();
    expect(noLimits.limit(surface, "1.2.3.4", key, headers)).toBeUndefined();
    expect(noLimits.failedAuth(surface, "1.2.3.4", headers)).toBeUndefined();
    expect(noLimits.blocked("1.2.3.4", headers)).toBeUndefined();
    expect(headers).toEqual({});
    expect(noLimits.bucketCount).toBe(0);
    expect(noLimits.sweep()).toBeUndefined();
    expect(await noLimits.quota.sync()).toBeUndefined();
    expect(await noLimits.start()).toBeUndefined();
    expect(await noLimits.stop()).toBeUndefined();
  });
});
