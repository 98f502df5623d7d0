import { describe, expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

const QUERY = "{ whoami { user { id } } }";

/**
 * docs/limits.md: `/graphql` with an API key draws the client's IP bucket (the one interface A
 * uses), the key's buckets, and the organization's plan limit (the one interface B uses), so
 * more keys buy neither more requests per address nor more per organization.
 */
function suite(driver: DriverName) {
  const ask = (app: Parameters<typeof send>[0], key: string, address: string) =>
    send(app, "/graphql", {
      key,
      headers: { "x-forwarded-for": address },
      body: { query: QUERY },
    });

  describe("per IP: 60 a minute, whatever the number of keys", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: {
        RATE_LIMIT_IP_PER_MIN: "60",
        RATE_LIMIT_KEY_PER_MIN: "600",
        RATE_LIMIT_BURST_PER_SEC: "10",
        TRUST_PROXY: "127.0.0.1",
      },
      now: clock.now,
    });

    test("400 requests over 40 keys from one address: 60 answered, then the per-IP 429", async () => {
      const first = await make.member({ plan: "ENTERPRISE" });
      const keys = [first.key];
      for (let i = 1; i < 40; i++) {
        keys.push((await make.member({ organizationId: first.organizationId })).key);
      }
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 400; i++) {
        last = await ask(app, keys[i % 40] as string, "192.0.2.90");
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array(60).fill(200), ...Array(340).fill(429)]);
      expect(await last?.json()).toEqual({ error: "Too many requests", retryAfter: 1 });
      expect(last?.headers.get("retry-after")).toBe("1");
      const elsewhere = await ask(app, first.key, "192.0.2.91");
      expect(elsewhere.status, "the same keys from another address").toBe(200);
      expect(elsewhere.headers.get("ratelimit-policy")).toBe(
        '"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1',
      );
    });
  });

  describe("per organization: its plan's limit, shared with interface B", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: {
        RATE_LIMIT_IP_PER_MIN: "60",
        RATE_LIMIT_KEY_PER_MIN: "600",
        RATE_LIMIT_BURST_PER_SEC: "1000",
        TRUST_PROXY: "127.0.0.1",
      },
      now: clock.now,
    });

    test("a FREE organization's 101st request in a minute over 5 keys and 5 addresses → 429", async () => {
      const first = await make.member({ plan: "FREE" });
      const keys = [first.key];
      for (let i = 1; i < 5; i++) {
        keys.push((await make.member({ organizationId: first.organizationId })).key);
      }
      for (let i = 0; i < 100; i++) {
        const response = await ask(app, keys[i % 5] as string, `198.51.100.${i % 5}`);
        expect(response.status, `request ${i + 1}`).toBe(200);
        if (i === 0) {
          expect(response.headers.get("ratelimit-policy")).toBe(
            '"ip";q=60;w=60, "key";q=600;w=60, "burst";q=1000;w=1, "org";q=100;w=60',
          );
        }
      }
      const refused = await ask(app, keys[0] as string, "198.51.100.50");
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ error: "Rate limit exceeded", retryAfter: 1 });
      expect(refused.headers.get("ratelimit")).toBe('"org";r=0;t=60');
      const restB = await send(app, "/api/projects", {
        key: keys[1],
        headers: { "x-forwarded-for": "198.51.100.51" },
      });
      expect(restB.status, "interface B draws the same organization bucket").toBe(429);
      const other = await make.member({ plan: "FREE" });
      expect((await ask(app, other.key, "198.51.100.52")).status, "another organization").toBe(200);
      clock.advance(600); // one token back (100 a minute)
      expect((await ask(app, keys[2] as string, "198.51.100.53")).status).toBe(200);
    });

    test("an ENTERPRISE organization has no plan limit", async () => {
      const { key } = await make.member({ plan: "ENTERPRISE" });
      const response = await ask(app, key, "203.0.113.5");
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit-policy")).toBe(
        '"ip";q=60;w=60, "key";q=600;w=60, "burst";q=1000;w=1',
      );
    });
  });
}

describeEachDriver("/graphql rate limits", suite);
