import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { generateApiKey } from "../../src/auth/keys.ts";
import { signInFailures } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { memberWithPassword, PASSWORD, pageClient } from "../helpers/settings.ts";

// the sign-in test hashes a few passwords at OWASP's scrypt cost (about a second each here)
setDefaultTimeout(120_000);

/** An address of 2001:db8:5:64::/64 with the interface id `n` (any of its 2^64). */
const inNetwork = (n: number) =>
  `2001:db8:5:64:${((n * 7919) % 0x10000).toString(16)}:${((n * 31) % 0x10000).toString(16)}:${n.toString(16)}:1`;

/**
 * docs/limits.md "IPv6 clients": a host of an IPv6 network picks any of the 2^64 addresses of
 * its /64 at will, so every limit keyed on a client counts the /64, as if it were one address.
 */
function suite(driver: DriverName) {
  describe("behind a trusted proxy, 60 a minute per client", () => {
    const clock = manualClock();
    const { app, make } = useTestApp(driver, {
      env: {
        RATE_LIMIT_IP_PER_MIN: "60",
        RATE_LIMIT_BURST_PER_SEC: "100000",
        TRUST_PROXY: "127.0.0.1",
      },
      now: clock.now,
    });
    const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

    test("300 requests from 300 addresses of one /64 are refused as 300 from one address", async () => {
      clock.advance(60_000); // every bucket full, whatever ran before
      const spread: number[] = [];
      for (let i = 0; i < 300; i++) {
        spread.push((await send(app, "/api/v1/whoami", from(inNetwork(i)))).status);
      }
      const single: number[] = [];
      for (let i = 0; i < 300; i++) {
        single.push((await send(app, "/api/v1/whoami", from("2001:db8:6:1::1"))).status);
      }
      expect(single, "one address: 60 answers, then the per-IP 429").toEqual([
        ...Array(60).fill(401),
        ...Array(240).fill(429),
      ]);
      expect(spread, "300 addresses of one /64 count as that one address").toEqual(single);
      const refused = await send(app, "/api/v1/whoami", from(inNetwork(1_000)));
      expect(await refused.json()).toEqual({ error: "Too many requests", retryAfter: 1 });
      const neighbour = await send(app, "/api/v1/whoami", from("2001:db8:5:65::1"));
      expect(neighbour.status, "the next /64 has its own bucket").toBe(401);
    });

    test("a fresh address of a /64 whose guesses emptied its bucket is refused, valid key or not", async () => {
      clock.advance(60_000);
      const { key } = await make.member();
      for (let i = 0; i < 60; i++)
        await send(app, "/api/projects", { ...from(inNetwork(i)), key: generateApiKey() });
      const guessed = await send(app, "/api/projects", {
        ...from("2001:db8:9:9:1::1"),
        key: generateApiKey(),
      });
      expect(guessed.status, "another network still gets its 401").toBe(401);
      // the failed-authentication throttle counted the 60 guesses of 2001:db8:5:64::/64 together
      const valid = await send(app, "/api/v1/whoami", { ...from(inNetwork(4_242)), key });
      expect(valid.status).toBe(429);
      expect(await valid.json()).toEqual({ error: "Too many requests", retryAfter: 1 });
    });

    test("invented keys on interface B from one /64: the 61st guess is the per-IP 429", async () => {
      clock.advance(60_000); // every bucket full again
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) {
        const response = await send(app, "/api/projects", {
          ...from(`2001:db8:77:1:${i.toString(16)}::9`),
          key: generateApiKey(),
        });
        statuses.push(response.status);
      }
      expect(statuses).toEqual([...Array(60).fill(401), 429]);
    });

    test("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
      clock.advance(60_000);
      for (let i = 0; i < 30; i++) await send(app, "/api/v1/whoami", from("198.51.100.44"));
      for (let i = 0; i < 30; i++) await send(app, "/api/v1/whoami", from("::ffff:198.51.100.44"));
      const mapped = await send(app, "/api/v1/whoami", from("::ffff:c633:642c"));
      expect(mapped.status, "the 61st request of 198.51.100.44, written three ways").toBe(429);
      expect((await send(app, "/api/v1/whoami", from("198.51.100.45"))).status).toBe(401);
    });
  });

  describe("the sign-in throttle", () => {
    const { app, make } = useTestApp(driver);

    test("30 failures from addresses of one /64 throttle the whole /64, not its neighbour", async () => {
      const org = await make.organization();
      const user = await memberWithPassword(app, make, org.id, "technician");
      const signIn = async (peer: string, email: string, password: string) => {
        const browser = pageClient(app);
        await send(app, "/login", { peer }); // the form's CSRF cookie
        const page = await browser.get("/login");
        expect(page.status).toBe(200);
        return send(app, "/login", {
          method: "POST",
          peer,
          headers: {
            cookie: browser.jar.header(),
            "content-type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams({
            _csrf: browser.preSessionCsrf(),
            email,
            password,
          }).toString(),
        });
      };
      const wrong = await signIn("2001:db8:5:64::1", "nobody@example.com", "not the password");
      expect(wrong.status).toBe(401);
      const db = app.services.database.db;
      const [recorded] = await db
        .select()
        .from(signInFailures)
        .where(eq(signInFailures.email, "nobody@example.com"));
      // 29 more failures from the same client, as the throttle records them
      await db.insert(signInFailures).values(
        Array.from({ length: 29 }, (_, i) => ({
          email: `guess${i}@example.com`,
          ip: recorded?.ip ?? "",
        })),
      );
      const another = await signIn("2001:db8:5:64:ffff::2", user.email, PASSWORD);
      expect(another.status, "another address of the /64 is throttled").toBe(429);
      expect(await another.text()).toContain("Too many failed sign-ins");
      const neighbour = await signIn("2001:db8:5:65::1", user.email, PASSWORD);
      expect(neighbour.status, "the next /64 signs in").toBe(303);
    });
  });
}

describeEachDriver("IPv6 clients counted by their /64", suite);
