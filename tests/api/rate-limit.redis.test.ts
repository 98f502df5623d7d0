import { afterAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  send,
  useTestApp,
} from "../helpers/harness.ts";

/** Runs only with TEST_REDIS_URL (as .ci/run sets it) against that Redis. */
const redisUrl = process.env.TEST_REDIS_URL;

function suite(driver: DriverName) {
  const prefix = `orgit:test:${crypto.randomUUID()}:`;
  const clients: RedisClient[] = [];
  const client = () => {
    const c = new RedisClient(redisUrl);
    clients.push(c);
    return c;
  };
  const env = { RATE_LIMIT_KEY_PER_MIN: "20", RATE_LIMIT_BURST_PER_SEC: "1000" };
  const { app, db, make } = useTestApp(driver, { env, redis: client(), redisPrefix: prefix });

  afterAll(async () => {
    const cleaner = client();
    const keys = (await cleaner.send("KEYS", [`${prefix}*`])) as string[];
    if (keys.length > 0) await cleaner.send("DEL", keys);
    for (const c of clients) c.close();
  });

  describe("two instances sharing Redis", () => {
    test("hit one key's per-minute limit together", async () => {
      const other = await buildTestApp(await db.openAnother(), {
        env,
        redis: client(),
        redisPrefix: prefix,
      });
      try {
        const { key } = await make.member();
        const statuses: number[] = [];
        for (let i = 0; i < 10; i++) {
          statuses.push((await send(app, "/api/v1/whoami", { key })).status);
          statuses.push((await send(other, "/api/v1/whoami", { key })).status);
        }
        expect(statuses.every((s) => s === 200)).toBe(true);
        const last = await send(other, "/api/v1/whoami", { key });
        expect(last.headers.get("ratelimit")).toBe('"key";r=0;t=60');
        const refused = await send(app, "/api/v1/whoami", { key });
        expect(refused.status, "the 21st, across both instances").toBe(429);
        expect(await refused.json()).toEqual({
          error: "API key rate limit exceeded",
          retryAfter: 3,
        });
      } finally {
        await other.stop();
      }
    });
  });
}

if (redisUrl) describeEachDriver("Redis buckets", suite);
else test.skip("Redis buckets (set TEST_REDIS_URL)", () => {});
