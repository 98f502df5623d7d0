import { describe, expect, test } from "bun:test";
import { generateApiKey } from "../../src/auth/keys.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

function suite(driver: DriverName) {
  describe("without a trusted proxy", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: { RATE_LIMIT_IP_PER_MIN: "5", RATE_LIMIT_BURST_PER_SEC: "10" },
      now: clock.now,
    });

    test("X-Forwarded-For from an untrusted peer does not buy a fresh IP bucket", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await send(app, "/api/v1/whoami", {
          peer: "192.0.2.60",
          headers: { "x-forwarded-for": `198.51.100.${i}` },
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    });

    test("with a valid key, unknown routes still count against the IP, and get its 429", async () => {
      const { key } = await make.member();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const response = await send(app, `/api/v1/probe-${i}`, { key, peer: "192.0.2.61" });
        statuses.push(response.status);
        if (i === 5)
          expect(await response.json()).toEqual({ error: "Too many requests", retryAfter: 12 });
      }
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429]);
      const known = await send(app, "/api/v1/whoami", { key, peer: "192.0.2.61" });
      expect(known.status, "the same IP stays refused on real routes").toBe(429);
    });
  });

  describe("burst per IP for keyless and badly keyed requests", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: { RATE_LIMIT_IP_PER_MIN: "1000", RATE_LIMIT_BURST_PER_SEC: "10" },
      now: clock.now,
    });

    test("eleven invented keys in one second from one address → the 11th is Too many requests", async () => {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 11; i++) {
        last = await send(app, "/api/v1/whoami", { key: generateApiKey(), peer: "192.0.2.80" });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      expect(await last?.json()).toEqual({ error: "Too many requests", retryAfter: 1 });
      // a valid key from the same address has its own burst bucket
      const { key } = await make.member();
      expect((await send(app, "/api/v1/whoami", { key, peer: "192.0.2.80" })).status).toBe(200);
    });

    test("POST /alerts/ingest (no key) is limited by the IP's burst bucket", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const response = await send(app, "/api/v1/alerts/ingest", {
          peer: "192.0.2.81",
          body: { source: "nagios", title: "disk full" },
        });
        statuses.push(response.status);
        expect(response.headers.get("ratelimit-policy")).toBe('"ip";q=1000;w=60, "burst";q=10;w=1');
        expect(response.headers.get("x-quota-used"), "ingest is not counted in a quota").toBeNull();
      }
      expect(statuses.slice(0, 10)).not.toContain(429);
      expect(statuses[10]).toBe(429);
    });

    test("one organization's exhausted key does not limit another organization", async () => {
      const a = await make.member();
      const b = await make.member();
      for (let i = 0; i < 10; i++)
        await send(app, "/api/v1/whoami", { key: a.key, peer: "192.0.2.82" });
      expect((await send(app, "/api/v1/whoami", { key: a.key, peer: "192.0.2.82" })).status).toBe(
        429,
      );
      expect((await send(app, "/api/v1/whoami", { key: b.key, peer: "192.0.2.82" })).status).toBe(
        200,
      );
    });
  });

  describe("a flood of distinct addresses", () => {
    const clock = manualClock();
    const { app } = useTestApp(driver, {
      env: { RATE_LIMIT_IP_PER_MIN: "60", RATE_LIMIT_BURST_PER_SEC: "10" },
      now: clock.now,
    });

    test("100,000 addresses: buckets stay bounded and are swept once idle", async () => {
      for (let i = 0; i < 100_000; i++) {
        const peer = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const response = await send(app, "/api/v1/whoami", { peer });
        if (response.status !== 401) throw new Error(`request ${i}: ${response.status}`);
      }
      const limits = app.services.limits;
      // an IP bucket and an IP burst bucket per address, at most 50,000 of each kind
      expect(limits.bucketCount).toBeLessThanOrEqual(100_000);
      expect(limits.bucketCount).toBeGreaterThan(50_000);
      clock.advance(500);
      limits.sweep();
      // the burst buckets (10/s) are full again and go; the IP ones (1/s) are still refilling
      expect(limits.bucketCount, "buckets still refilling are kept").toBeGreaterThan(45_000);
      expect(limits.bucketCount).toBeLessThanOrEqual(50_000);
      clock.advance(60_000);
      limits.sweep();
      expect(limits.bucketCount, "full buckets equal new ones: nothing idle is kept").toBe(0);
    }, 120_000);
  });
}

describeEachDriver("rate limit security", suite);
