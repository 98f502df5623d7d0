import { afterAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { RedisCommands } from "../../src/limits/redis-buckets.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  freshDatabase,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { ROOT, startServiceProcess } from "../helpers/service-process.ts";

const ADMIN_TOKEN = "redis-test-operator-token-0123456789";

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
  // counts the scripts one instance runs
  let evals = 0;
  const counted = client();
  const counting: RedisCommands = {
    send(command, args) {
      if (command === "EVALSHA" || command === "EVAL") evals++;
      return counted.send(command, args);
    },
  };
  const scripts = () => evals;
  const { app, db, make } = useTestApp(driver, { env, redis: counting, redisPrefix: prefix });

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
        evals = 0;
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
        expect(scripts(), "one script per request: IP, key and burst together").toBe(11);
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

/**
 * The real entry point (src/index.ts builds Bun's RedisClient from REDIS_URL): two service
 * processes on one Postgres and one Redis enforce a single per-key limit.
 */
const BUN = `${ROOT}node_modules/.bin/bun`;

test.skipIf(!redisUrl || !process.env.TEST_DATABASE_URL)(
  "two service processes with REDIS_URL share one per-key limit",
  async () => {
    const fresh = await freshDatabase("postgres");
    const env = {
      ...fresh.serviceEnv,
      REDIS_URL: redisUrl as string,
      RATE_LIMIT_KEY_PER_MIN: "6",
      RATE_LIMIT_BURST_PER_SEC: "1000",
      RATE_LIMIT_IP_PER_MIN: "100000000",
      LOG_LEVEL: "warn",
    };
    const start = (label: string) =>
      startServiceProcess({
        command: [BUN, "run", "src/index.ts"],
        adminToken: ADMIN_TOKEN,
        env,
        startTimeoutMs: 60_000,
        label,
      });
    const [first, second] = await Promise.all([start("first"), start("second")]);
    try {
      const { secret } = await first.provisionKey({
        organization: { name: "Shared", plan: "PRO" },
        user: { email: "shared@example.com", firstName: "Sha", lastName: "Red" },
        key: { name: "shared", scopes: ["equipment:read"], expiresIn: "NEVER" },
      });
      const headers = { authorization: `Bearer ${secret}` };
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const service = i % 2 === 0 ? first : second;
        statuses.push((await fetch(`${service.base}/api/v1/whoami`, { headers })).status);
      }
      expect(statuses, first.output() + second.output()).toEqual([
        200, 200, 200, 200, 200, 200, 429,
      ]);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      await fresh.drop();
    }
  },
  120_000,
);
