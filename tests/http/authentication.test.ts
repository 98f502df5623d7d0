import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiKeys } from "../../src/db/schema/index.ts";
import { bearerToken } from "../../src/http/auth.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  buildTestApp,
  factories,
  freshDatabase,
  graphql,
  send,
  TEST_ADMIN_TOKEN,
  useTestApp,
} from "../helpers/harness.ts";
import { withLostConnection } from "../helpers/lost-connection.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * src/http/auth.ts: which Authorization headers carry a token, and what the REST and /graphql
 * authentication does with it: the principal or the operator in the access log, the limits
 * applied after it (the quota of an organization seen for the first time, the rate-limit
 * headers on /graphql), and the 401s.
 */
describe("bearerToken", () => {
  test("Bearer, any case, spaces or tabs around the token", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("BEARER\tabc")).toBe("abc");
    expect(bearerToken("Bearer  \t abc \t ")).toBe("abc");
    expect(bearerToken("Bearer orgit_x+/=-_.~")).toBe("orgit_x+/=-_.~");
  });

  test("anything else carries no token", () => {
    for (const header of [
      null,
      "",
      "Bearer",
      "Bearer ",
      "Bearerabc",
      "Basic abc",
      "Bearer abc def",
      "xBearer abc",
      " Bearer abc",
      "Bearer abc x",
      "Token abc",
      // whitespace other than spaces and tabs, in or after the token
      "Bearer abc\n",
      "Bearer ab\u00a0c",
      "Bearer abc\u2028",
    ]) {
      expect(bearerToken(header), JSON.stringify(header)).toBeUndefined();
    }
  });
});

const ORGANIZATION = "query($id: ID!) { organization(id: $id) { id } }";

describe("authentication of REST and /graphql requests", () => {
  const logs: Record<string, unknown>[] = [];
  const { app, make } = useTestApp("pglite", { logs });
  const accessLine = async (response: Response) => {
    const id = response.headers.get("x-request-id");
    const mine = (l: Record<string, unknown>) => l.msg === "request" && l.requestId === id;
    await eventually(() => logs.some(mine), "the access-log line");
    return logs.find(mine) as Record<string, unknown>;
  };

  test("a REST request: the key's organization and id in the access log", async () => {
    const { key, organizationId, apiKey } = await make.member();
    const response = await send(app, "/api/v1/whoami", { key });
    expect(response.status).toBe(200);
    expect(await accessLine(response)).toMatchObject({
      status: 200,
      organizationId,
      apiKeyId: apiKey.id,
    });
  });

  test("the first request of an organization whose quota is spent is refused (the quota's first load is awaited)", async () => {
    const org = await make.organization({ dailyQuota: 0 });
    const { key } = await make.member({ organizationId: org.id });
    const response = await send(app, "/api/v1/whoami", { key });
    expect(response.status).toBe(429);
    expect(await response.json()).toMatchObject({ error: "API quota exceeded" });
  });

  test("REST 401s: no key, another scheme, an invented key", async () => {
    for (const [authorization, error] of [
      [undefined, "Missing API key"],
      ["Basic YWRhOnB3", "Missing API key"],
      ["Bearer orgit_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "Invalid API key"],
    ] as const) {
      const response = await send(app, "/api/v1/whoami", {
        headers: authorization ? { authorization } : {},
      });
      expect(response.status, authorization).toBe(401);
      expect(await response.json()).toEqual({ error });
    }
  });

  test("/graphql with a key: the principal, its rate-limit headers, the access log", async () => {
    const { key, organizationId, apiKey } = await make.member();
    const { response, json } = await graphql(app, key, "{ whoami { organization { id } } }");
    expect(json).toEqual({ data: { whoami: { organization: { id: organizationId } } } });
    // the organization's plan bucket (PRO, 1,000 a minute) is the closest to exhaustion
    expect(response.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(response.headers.get("ratelimit-policy")).toBe(
      '"ip";q=100000000;w=60, "key";q=100000000;w=60, "burst";q=100000000;w=1, "org";q=1000;w=60',
    );
    expect(await accessLine(response)).toMatchObject({ organizationId, apiKeyId: apiKey.id });
  });

  test("/graphql with the operator token: operator access, marked in the access log, no key limits", async () => {
    const org = await make.organization();
    const { response, json } = await graphql(app, TEST_ADMIN_TOKEN, ORGANIZATION, { id: org.id });
    expect(response.status).toBe(200);
    expect(json).toEqual({ data: { organization: { id: org.id } } });
    expect(response.headers.get("x-ratelimit-limit")).toBeNull();
    const line = await accessLine(response);
    expect(line.operator).toBe(true);
    expect(line.organizationId).toBeUndefined();
  });

  test("/graphql without a token: 401 Missing API key", async () => {
    const { response, json } = await graphql(app, undefined, ORGANIZATION, {
      id: crypto.randomUUID(),
    });
    expect(response.status).toBe(401);
    expect(json).toEqual({ error: "Missing API key" });
  });

  test("/graphql: a key is never the operator, even for its own organization", async () => {
    const { key, organizationId } = await make.member();
    const { response, json } = await graphql(app, key, ORGANIZATION, { id: organizationId });
    expect(response.status).toBe(200);
    expect(json.data).toBeNull();
    expect(json.errors?.[0]).toMatchObject({
      message: "Operator access required",
      extensions: { status: 403 },
    });
  });

  test("/graphql: a wrong operator token and an orgit_ token that is not a key are 401 Invalid API key", async () => {
    for (const token of [
      `${TEST_ADMIN_TOKEN}x`,
      "orgit_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      `orgit_${TEST_ADMIN_TOKEN}`,
    ]) {
      const { response, json } = await graphql(app, token, ORGANIZATION, {
        id: crypto.randomUUID(),
      });
      expect(response.status, token).toBe(401);
      expect(json).toEqual({ error: "Invalid API key" });
    }
  });
});

describe("/graphql from an address that keeps failing, and without ADMIN_TOKEN", () => {
  const { app } = useTestApp("pglite", {
    env: { ADMIN_TOKEN: "", RATE_LIMIT_IP_PER_MIN: "2", RATE_LIMIT_BURST_PER_SEC: "100" },
  });

  test("a token that is not a key is Invalid API key (no operator without ADMIN_TOKEN); the address's bucket then refuses with its headers", async () => {
    const attempt = () => graphql(app, TEST_ADMIN_TOKEN, ORGANIZATION, { id: crypto.randomUUID() });
    for (let i = 0; i < 2; i++) {
      const { response, json } = await attempt();
      expect(response.status).toBe(401);
      expect(json).toEqual({ error: "Invalid API key" });
    }
    const { response, json } = await attempt();
    expect(response.status).toBe(429);
    expect(json).toMatchObject({ error: "Too many requests" });
    expect(response.headers.get("x-ratelimit-limit")).toBe("2");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("REST requests counted against their address", () => {
  const clock = manualClock();
  const { app } = useTestApp("pglite", {
    env: { RATE_LIMIT_IP_PER_MIN: "60", RATE_LIMIT_BURST_PER_SEC: "1000" },
    now: clock.now,
  });

  test("without a key: once, before routing, not again when the 401 is answered", async () => {
    const peer = "192.0.2.201";
    const first = await send(app, "/api/v1/whoami", { peer });
    expect(first.status).toBe(401);
    expect(first.headers.get("ratelimit-policy")).toBe('"ip";q=60;w=60, "burst";q=1000;w=1');
    expect(first.headers.get("x-ratelimit-remaining")).toBe("59");
    const second = await send(app, "/api/v1/whoami", { peer });
    expect(second.headers.get("x-ratelimit-remaining"), "one token a request").toBe("58");
  });

  test("with an invented key: once, when authentication refuses it", async () => {
    const peer = "192.0.2.202";
    const key = "orgit_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    for (const left of ["59", "58"]) {
      const guessed = await send(app, "/api/v1/whoami", { peer, key });
      expect(guessed.status).toBe(401);
      expect(guessed.headers.get("x-ratelimit-remaining")).toBe(left);
    }
  });
});

describe("a key read as unknown just after the database lost a connection", () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let lossy: ReturnType<typeof withLostConnection>;
  let app: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    fresh = await freshDatabase("pglite");
    lossy = withLostConnection(fresh.database, apiKeys);
    app = await buildTestApp(lossy.database);
  });
  afterAll(async () => {
    await app?.stop();
    await fresh?.drop();
  });

  test("is refused once, and the next request answers 200, not 401 for the key cache's minute", async () => {
    const { key } = await factories(app).member();
    // a pooled connection closes and the key's read answers no row (patches/postgres+3.4.9.patch 7)
    lossy.lose();
    const during = await send(app, "/api/v1/whoami", { key });
    expect(during.status).toBe(401);
    expect(await during.json()).toEqual({ error: "Invalid API key" });
    const after = await send(app, "/api/v1/whoami", { key });
    expect(after.status).toBe(200);
  });
});
