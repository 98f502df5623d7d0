import { describe, expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";

const DEFAULT_LIMITS = {
  RATE_LIMIT_IP_PER_MIN: "60",
  RATE_LIMIT_KEY_PER_MIN: "600",
  RATE_LIMIT_BURST_PER_SEC: "10",
};

const rateHeaders = (response: Response) => ({
  limit: response.headers.get("x-ratelimit-limit"),
  remaining: response.headers.get("x-ratelimit-remaining"),
  reset: response.headers.get("x-ratelimit-reset"),
  ratelimit: response.headers.get("ratelimit"),
});

function suite(driver: DriverName) {
  describe("the default limits (60/min per IP, 600/min per key, 10/s burst)", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, { env: DEFAULT_LIMITS, now: clock.now });

    test("every /api/v1 answer carries the limit headers; they count down and refill", async () => {
      const { key } = await make.member();
      const peer = "192.0.2.1";
      const first = await send(app, "/api/v1/whoami", { key, peer });
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-policy")).toBe(
        '"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1',
      );
      // the burst bucket is the one closest to exhaustion
      expect(rateHeaders(first)).toEqual({
        limit: "10",
        remaining: "9",
        reset: "1",
        ratelimit: '"burst";r=9;t=1',
      });
      const seen: (string | null)[] = [];
      for (let i = 0; i < 4; i++) {
        seen.push(
          (await send(app, "/api/v1/whoami", { key, peer })).headers.get("x-ratelimit-remaining"),
        );
      }
      expect(seen, "one request less each time").toEqual(["8", "7", "6", "5"]);
      clock.advance(1_000);
      const later = await send(app, "/api/v1/whoami", { key, peer });
      expect(rateHeaders(later), "a second later the burst bucket is full again").toEqual({
        limit: "10",
        remaining: "9",
        reset: "1",
        ratelimit: '"burst";r=9;t=1',
      });
    });

    test("400, 401, 403 and 404 answers carry the headers too", async () => {
      const free = await make.member({ plan: "FREE" });
      const pro = await make.member();
      const cases = [
        {
          path: "/api/v1/whoami",
          key: undefined,
          status: 401,
          policy: '"ip";q=60;w=60, "burst";q=10;w=1',
        },
        {
          path: "/api/v1/whoami",
          key: free.key,
          status: 403,
          policy: '"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1',
        },
        { path: "/api/v1/no-such-route", key: pro.key, status: 404, policy: '"ip";q=60;w=60' },
        // a malformed body is refused before authentication: only the IP bucket was drawn
        {
          path: "/api/v1/tickets",
          key: pro.key,
          status: 400,
          policy: '"ip";q=60;w=60',
          body: "{oops",
        },
      ];
      for (const [i, c] of cases.entries()) {
        const response = await send(app, c.path, {
          key: c.key,
          peer: `192.0.2.${10 + i}`,
          body: c.body,
        });
        expect(response.status).toBe(c.status);
        expect(response.headers.get("ratelimit-policy"), c.path).toBe(c.policy);
        expect(response.headers.get("x-ratelimit-limit"), c.path).toMatch(/^\d+$/);
        expect(response.headers.get("x-ratelimit-remaining"), c.path).toMatch(/^\d+$/);
        expect(response.headers.get("x-ratelimit-reset"), c.path).toMatch(/^\d+$/);
      }
    });

    test("the 11th request of a key within one second → 429; 100 ms later a token is back", async () => {
      const { key } = await make.member();
      for (let i = 0; i < 10; i++) {
        expect((await send(app, "/api/v1/whoami", { key, peer: "192.0.2.20" })).status).toBe(200);
      }
      const refused = await send(app, "/api/v1/whoami", { key, peer: "192.0.2.20" });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: "API key rate limit exceeded", retryAfter: 1 });
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(rateHeaders(refused)).toEqual({
        limit: "10",
        remaining: "0",
        reset: "1",
        ratelimit: '"burst";r=0;t=1',
      });
      clock.advance(100);
      expect((await send(app, "/api/v1/whoami", { key, peer: "192.0.2.20" })).status).toBe(200);
    });

    test("/graphql with an API key has the IP, key and plan buckets but no daily quota", async () => {
      const { key } = await make.member();
      const query = "{ whoami { user { id } } }";
      for (let i = 0; i < 10; i++) {
        const { response } = await graphql(app, key, query);
        expect(response.status).toBe(200);
        expect(response.headers.get("ratelimit-policy")).toBe(
          '"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1, "org";q=1000;w=60',
        );
        expect(response.headers.get("x-quota-used")).toBeNull();
      }
      const { response, json } = await graphql(app, key, query);
      expect(response.status).toBe(429);
      expect(json as unknown).toEqual({ error: "API key rate limit exceeded", retryAfter: 1 });
    });

    test("the OpenAPI document lists the 429 answer on every authenticated route", async () => {
      const doc = await (await send(app, "/swagger/json")).json();
      for (const path of ["/api/v1/whoami", "/api/v1/health"]) {
        const answer = doc.paths[path].get.responses["429"];
        expect(answer, path).toBeDefined();
        expect(answer.content["application/json"].schema.$ref).toBe(
          "#/components/schemas/RateLimited",
        );
        expect(answer.headers["Retry-After"]).toBeDefined();
      }
      expect(Object.keys(doc.components.schemas.RateLimited.properties)).toContain("retryAfter");
    });

    test("the operator token is not limited", async () => {
      for (let i = 0; i < 15; i++) {
        const { response } = await graphql(app, TEST_ADMIN_TOKEN, "{ __typename }");
        expect(response.status).toBe(200);
        expect(response.headers.get("x-ratelimit-limit")).toBeNull();
      }
    });
  });

  describe("per IP, without a burst in the way", () => {
    const clock = manualClock();
    const { app } = useTestApp(driver, {
      env: { ...DEFAULT_LIMITS, RATE_LIMIT_BURST_PER_SEC: "1000" },
      now: clock.now,
    });

    test("the 61st request in a minute from one IP → 429 Too many requests; 401s count", async () => {
      const peer = "198.51.100.7";
      for (let i = 0; i < 60; i++) {
        const response = await send(app, "/api/v1/whoami", { peer });
        expect(response.status).toBe(401);
        expect(response.headers.get("x-ratelimit-remaining")).toBe(String(59 - i));
      }
      const refused = await send(app, "/api/v1/whoami", { peer });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: "Too many requests", retryAfter: 1 });
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.headers.get("ratelimit")).toBe('"ip";r=0;t=60');
      // another address is unaffected
      expect((await send(app, "/api/v1/whoami", { peer: "198.51.100.8" })).status).toBe(401);
      clock.advance(1_000);
      expect((await send(app, "/api/v1/whoami", { peer })).status, "one token a second").toBe(401);
      expect((await send(app, "/api/v1/whoami", { peer })).status).toBe(429);
    });
  });

  describe("per key, from many addresses behind a trusted proxy", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: { ...DEFAULT_LIMITS, RATE_LIMIT_BURST_PER_SEC: "100000", TRUST_PROXY: "127.0.0.1" },
      now: clock.now,
    });

    test("the 601st request of one key → 429 API key rate limit exceeded", async () => {
      const { key } = await make.member();
      const statuses = new Map<number, number>();
      for (let i = 0; i < 600; i++) {
        const forwardedFor = `203.0.113.${i % 11}`; // 55 or fewer each: under the IP limit
        const response = await send(app, "/api/v1/whoami", {
          key,
          headers: { "x-forwarded-for": forwardedFor },
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 200: 600 });
      const refused = await send(app, "/api/v1/whoami", {
        key,
        headers: { "x-forwarded-for": "203.0.113.99" },
      });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: "API key rate limit exceeded", retryAfter: 1 });
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(refused.headers.get("ratelimit")).toBe('"key";r=0;t=60');
      // a fresh address does not help, but another key of the same organization does
      clock.advance(100);
      expect(
        (await send(app, "/api/v1/whoami", { key, headers: { "x-forwarded-for": "203.0.113.99" } }))
          .status,
      ).toBe(200);
    });
  });

  describe("interface B: per organization by plan", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, { env: DEFAULT_LIMITS, now: clock.now });

    test("FREE: the 101st request in a minute → 429 with the same headers; no quota headers", async () => {
      const { key } = await make.member({ plan: "FREE", scopes: ["projects:read"] });
      for (let i = 0; i < 100; i++) {
        const response = await send(app, "/api/projects", { key });
        expect(response.status).not.toBe(429);
        expect(response.headers.get("x-ratelimit-remaining")).toBe(String(99 - i));
        expect(response.headers.get("x-quota-used")).toBeNull();
      }
      const refused = await send(app, "/api/projects", { key });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: "Rate limit exceeded", retryAfter: 1 });
      expect(refused.headers.get("ratelimit-policy")).toBe('"org";q=100;w=60');
      expect(refused.headers.get("x-ratelimit-limit")).toBe("100");
      expect(refused.headers.get("retry-after")).toBe("1");
    });

    test("PRO: 1000 a minute; ENTERPRISE: no limit and no limit headers", async () => {
      const pro = await make.member({ plan: "PRO", scopes: ["projects:read"] });
      const response = await send(app, "/api/projects", { key: pro.key });
      expect(response.headers.get("ratelimit-policy")).toBe('"org";q=1000;w=60');
      expect(response.headers.get("x-ratelimit-remaining")).toBe("999");
      const enterprise = await make.member({ plan: "ENTERPRISE", scopes: ["projects:read"] });
      for (let i = 0; i < 120; i++) {
        const answer = await send(app, "/api/projects", { key: enterprise.key });
        expect(answer.status).not.toBe(429);
        expect(answer.headers.get("x-ratelimit-limit")).toBeNull();
      }
    });
  });
}

describeEachDriver("rate limits", suite);
