import { expect, test } from "bun:test";
import { generateApiKey } from "../../src/auth/keys.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  type DriverName,
  describeEachDriver,
  type RequestOptions,
  send,
  useTestApp,
} from "../helpers/harness.ts";

/** One failed-authentication attempt on each surface that takes a credential. */
const SURFACES: Record<string, (peer: string) => [string, RequestOptions]> = {
  "/api/v1 with an invented key": (peer) => ["/api/v1/whoami", { key: generateApiKey(), peer }],
  "/api/v1 without a key": (peer) => ["/api/v1/whoami", { peer }],
  "/api/projects with an invented key": (peer) => [
    "/api/projects",
    { key: generateApiKey(), peer },
  ],
  "/api/webhooks with an invented key": (peer) => [
    "/api/webhooks",
    { key: generateApiKey(), peer },
  ],
  "/graphql with an invented key": (peer) => [
    "/graphql",
    { key: generateApiKey(), peer, body: { query: "{ whoami { user { id } } }" } },
  ],
  "/graphql with a wrong operator token": (peer) => [
    "/graphql",
    { key: `wrong-operator-token-${crypto.randomUUID()}`, peer, body: { query: "{ __typename }" } },
  ],
  "/install with an invented token": (peer) => [`/install/${crypto.randomUUID()}`, { peer }],
};

async function expectPerIp429(response: Response) {
  expect(response.status).toBe(429);
  const body = (await response.json()) as { error: string; retryAfter: number };
  expect(body.error).toBe("Too many requests");
  expect(Number.isInteger(body.retryAfter) && body.retryAfter >= 1).toBe(true);
  expect(response.headers.get("retry-after")).toBe(String(body.retryAfter));
  expect(response.headers.get("x-ratelimit-limit")).toBe("60");
  expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
  expect(response.headers.get("ratelimit-policy") ?? "").toContain('"ip";q=60;w=60');
  expect(response.headers.get("ratelimit") ?? "").toStartWith('"ip";r=0;');
}

function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, {
    // the default per-IP limit (docs/limits.md); the burst out of the way so that the minute bucket is what speaks
    env: { RATE_LIMIT_IP_PER_MIN: "60", RATE_LIMIT_BURST_PER_SEC: "100000" },
    now: clock.now,
  });

  let n = 0;
  for (const [surface, attempt] of Object.entries(SURFACES)) {
    test(`${surface}: 150 attempts from one address → 429 from the 61st; others unaffected`, async () => {
      const peer = `198.51.100.${++n}`;
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let i = 0; i < 150; i++) {
        const [path, options] = attempt(peer);
        const response = await send(app, path, options);
        statuses.push(response.status);
        if (response.status === 429) {
          refused = response;
          break;
        }
      }
      expect(statuses.length, "refused before the end").toBe(61);
      expect(new Set(statuses.slice(0, 60)).size, "the same failure each time").toBe(1);
      await expectPerIp429(refused as Response);

      // while refused, a guess costs no credential lookup
      const before = db.database.stats.queries;
      const [path, options] = attempt(peer);
      expect((await send(app, path, options)).status).toBe(429);
      expect(db.database.stats.queries - before, "no database query").toBe(0);

      const [otherPath, otherOptions] = attempt("203.0.113.9");
      const other = await send(app, otherPath, otherOptions);
      expect(other.status, "another address is unaffected").not.toBe(429);
    });
  }

  test("one bucket for every surface: failures add up across them", async () => {
    const peer = "198.51.100.200";
    const surfaces = Object.values(SURFACES);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const [path, options] = (
        surfaces[i % surfaces.length] as (p: string) => [string, RequestOptions]
      )(peer);
      statuses.push((await send(app, path, options)).status);
    }
    expect(statuses.slice(0, 60)).not.toContain(429);
    expect(statuses[60]).toBe(429);
  });

  test("real keys still work: from another address at once, from the guesser's once a token is back", async () => {
    const peer = "198.51.100.201";
    const { key } = await make.member({ scopes: ["projects:read", "equipment:read"] });
    for (let i = 0; i < 61; i++) await send(app, "/api/projects", { key: generateApiKey(), peer });
    const elsewhere = "203.0.113.10";
    expect((await send(app, "/api/projects", { key, peer: elsewhere })).status).toBe(200);
    expect((await send(app, "/api/v1/whoami", { key, peer: elsewhere })).status).toBe(200);
    const gql = await send(app, "/graphql", {
      key,
      peer: elsewhere,
      body: { query: "{ whoami { user { id } } }" },
    });
    expect(gql.status).toBe(200);
    clock.advance(2_000);
    expect((await send(app, "/api/projects", { key, peer })).status).toBe(200);
    // a successful authentication outside /api/v1 draws nothing: the bucket is still low
    expect((await send(app, "/api/projects", { key, peer })).status).toBe(200);
  });
}

describeEachDriver("failed-authentication throttling (security)", suite);
