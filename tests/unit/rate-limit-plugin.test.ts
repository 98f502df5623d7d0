import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { loadConfig } from "../../src/config.ts";
import { notFound, unauthenticated } from "../../src/errors.ts";
import { createClientIpResolver } from "../../src/http/client-ip.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { limitKey, rateLimitPlugin, throttled } from "../../src/http/rate-limit.ts";
import { type RequestMeta, requestContext, requestMeta } from "../../src/http/request-context.ts";
import { credentialSurface, type HttpSurface, surfaceOf } from "../../src/http/surfaces.ts";
import { type Headers, type Limits, noLimits, type Surface } from "../../src/limits/limits.ts";
import { tooMany } from "../../src/limits/refusals.ts";
import { createLogger } from "../../src/logger.ts";

/**
 * src/http/rate-limit.ts, where the limits meet a request: it asks each request's question at
 * the right moment (a keyless /api/v1 request before routing; a keyed one at authentication,
 * or, when it never gets there, once it ends), turns a refusal into the answer, and wraps a
 * credential lookup in the failed-authentication throttle. A fake Limits records the facts.
 */
interface Asked {
  call: "limit" | "failedAuth" | "blocked";
  surface?: Surface;
  client: string;
  key?: string;
}

function recording(overrides: Partial<Limits> = {}) {
  const asked: Asked[] = [];
  const limits: Limits = {
    ...noLimits,
    limit: (surface, client, key) => {
      asked.push({ call: "limit", surface, client, key: key?.apiKey.id });
      return undefined;
    },
    failedAuth: (surface, client) => {
      asked.push({ call: "failedAuth", surface, client });
      return undefined;
    },
    blocked: (client) => {
      asked.push({ call: "blocked", client });
      return undefined;
    },
    ...overrides,
  };
  return { limits, asked };
}

const ipRefusal = () =>
  tooMany("Too many requests", [{ name: "ip", limit: 4, windowMs: 60_000 }], [0]);
const refusing = (headers: Headers) => {
  headers["x-ratelimit-remaining"] = "0";
  return ipRefusal();
};

function adapted(limits: Limits) {
  let handled = 0;
  const config = loadConfig({});
  const app = new Elysia()
    .use(
      requestContext({
        config,
        logger: createLogger("error", () => {}),
        clientIp: createClientIpResolver([]),
      }),
    )
    .use(rateLimitPlugin(limits))
    .get("/api/v1/ok", () => {
      handled++;
      return { ok: true };
    })
    .get("/api/v1/boom", () => {
      handled++;
      throw new Error("boom");
    })
    .get("/api/other", () => ({ ok: true }));
  const call = async (path: string, headers: Record<string, string> = {}, peer = "10.9.0.1") => {
    const request = setPeerAddress(new Request(`http://localhost${path}`, { headers }), peer);
    const response = await app.handle(request);
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  return { call, handled: () => handled };
}

const keyless = surfaceOf("/api/v1/x", false);
const keyed = surfaceOf("/api/v1/x", true);
const BEARER = { authorization: "Bearer k" };

test("a keyless /api/v1 request is asked before routing, with its client", async () => {
  const { limits, asked } = recording();
  const app = adapted(limits);
  expect((await app.call("/api/v1/ok?x=1")).status).toBe(200);
  expect(asked).toEqual([{ call: "limit", surface: keyless, client: "10.9.0.1", key: undefined }]);
  expect(app.handled()).toBe(1);
});

test("an IPv6 client is asked about by its /64", async () => {
  const { limits, asked } = recording();
  await adapted(limits).call("/api/v1/ok", {}, "2001:db8:a:b:c:d:e:f");
  expect(asked[0]?.client).toBe("2001:db8:a:b::/64");
});

test("a keyed /api/v1 request is only checked for a block before routing", async () => {
  const { limits, asked } = recording();
  const app = adapted(limits);
  // the route never authenticates: the request is asked, without a key, once it ends
  expect((await app.call("/api/v1/ok", BEARER)).status).toBe(200);
  expect(asked).toEqual([
    { call: "blocked", client: "10.9.0.1" },
    { call: "limit", surface: keyed, client: "10.9.0.1", key: undefined },
  ]);
});

test("outside /api/v1 nothing is asked before routing; at the end, its surface without a key", async () => {
  const { limits, asked } = recording();
  const app = adapted(limits);
  expect((await app.call("/api/other", BEARER)).status).toBe(200);
  expect((await app.call("/api/missing", BEARER)).status).toBe(404);
  const interfaceB = surfaceOf("/api/other", true);
  expect(interfaceB.anonymous, "which draws nothing").toEqual([]);
  expect(asked).toEqual([
    { call: "limit", surface: interfaceB, client: "10.9.0.1", key: undefined },
    { call: "limit", surface: interfaceB, client: "10.9.0.1", key: undefined },
  ]);
});

test("a request that authenticated, or failed to, is not asked again when it ends", async () => {
  const { limits, asked } = recording();
  const key = {
    apiKey: { id: "k1" },
    user: { id: "u1" },
    organization: { id: "o", plan: "FREE" as const, dailyQuota: null, unlimitedQuota: false },
  };
  const app = new Elysia()
    .use(
      requestContext({
        config: loadConfig({}),
        logger: createLogger("error", () => {}),
        clientIp: createClientIpResolver([]),
      }),
    )
    .use(rateLimitPlugin(limits))
    .get("/api/v1/signed-in", ({ request }) => {
      const meta = requestMeta(request) as RequestMeta;
      meta.principal = key as unknown as RequestMeta["principal"];
      return "ok";
    })
    .get("/api/v1/signed-in-then-failing", ({ request }) => {
      const meta = requestMeta(request) as RequestMeta;
      meta.principal = key as unknown as RequestMeta["principal"];
      throw new Error("after authentication");
    })
    .get("/api/v1/operator", ({ request }) => {
      (requestMeta(request) as RequestMeta).operator = true;
      return "ok";
    })
    .get("/api/v1/refused-key", () => {
      throw unauthenticated("Invalid API key");
    })
    .get("/api/v1/refused-by-limits", () => {
      throw ipRefusal();
    })
    .get("/api/v1/not-found", () => {
      throw notFound();
    });
  const call = (path: string) =>
    app.handle(
      setPeerAddress(new Request(`http://localhost${path}`, { headers: BEARER }), "10.9.4.1"),
    );
  expect((await call("/api/v1/signed-in")).status).toBe(200);
  expect((await call("/api/v1/signed-in-then-failing")).status).toBe(500);
  expect((await call("/api/v1/operator")).status).toBe(200);
  expect((await call("/api/v1/refused-key")).status).toBe(401);
  expect((await call("/api/v1/refused-by-limits")).status).toBe(429);
  expect(
    asked.filter((a) => a.call === "limit"),
    "asked at authentication, not again",
  ).toEqual([]);
  // a 404 from a handler that never authenticated is not a failed authentication: asked
  expect((await call("/api/v1/not-found")).status).toBe(404);
  expect(asked.at(-1)).toEqual({
    call: "limit",
    surface: keyed,
    client: "10.9.4.1",
    key: undefined,
  });
});

test("without the request context nothing is asked and the request goes on", async () => {
  const { limits, asked } = recording();
  const app = new Elysia().use(rateLimitPlugin(limits)).get("/api/v1/ok", () => "ok");
  const response = await app.handle(new Request("http://localhost/api/v1/ok", { headers: BEARER }));
  expect(response.status).toBe(200);
  expect(
    await app.handle(new Request("http://localhost/api/v1/missing")).then((r) => r.status),
  ).toBe(404);
  expect(asked).toEqual([]);
});

test("a refusal before routing is the answer, now or later (Redis)", async () => {
  for (const later of [false, true]) {
    const { limits } = recording({
      limit: (_s, _c, _k, headers) =>
        later ? Promise.resolve(refusing(headers)) : refusing(headers),
    });
    const app = adapted(limits);
    const answer = await app.call("/api/v1/ok");
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.text)).toEqual({ error: "Too many requests", retryAfter: 15 });
    expect(answer.headers.get("retry-after")).toBe("15");
    expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(app.handled()).toBe(0);
    const { limits: open } = recording({
      limit: () => (later ? Promise.resolve(undefined) : undefined),
    });
    const allowed = adapted(open);
    expect((await allowed.call("/api/v1/ok")).status).toBe(200);
    expect(allowed.handled()).toBe(1);
  }
});

test("a blocked client with a key is refused before routing", async () => {
  const { limits } = recording({ blocked: (_c, headers) => refusing(headers) });
  const app = adapted(limits);
  const answer = await app.call("/api/v1/ok", BEARER);
  expect(answer.status).toBe(429);
  expect(answer.headers.get("retry-after")).toBe("15");
  expect(app.handled()).toBe(0);
});

test("a keyed request that ends unasked (an error, an unknown route) is asked then; its refusal wins", async () => {
  for (const later of [false, true]) {
    const asked: string[] = [];
    const { limits } = recording({
      limit: (_s, _c, key, headers) => {
        asked.push(key === undefined ? "without a key" : "with a key");
        return later ? Promise.resolve(refusing(headers)) : refusing(headers);
      },
    });
    const app = adapted(limits);
    for (const path of ["/api/v1/boom", "/api/v1/ok", "/api/v1/missing"]) {
      const answer = await app.call(path, BEARER);
      expect(answer.status, path).toBe(429);
      expect(JSON.parse(answer.text)).toEqual({ error: "Too many requests", retryAfter: 15 });
      expect(answer.headers.get("retry-after")).toBe("15");
      expect(answer.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    expect(asked).toEqual(Array(3).fill("without a key"));
    const { limits: open } = recording({
      limit: () => (later ? Promise.resolve(undefined) : undefined),
    });
    const allowed = adapted(open);
    const ok = await allowed.call("/api/v1/ok", BEARER);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ ok: true });
    expect((await allowed.call("/api/v1/boom", BEARER)).status).not.toBe(429);
    expect((await allowed.call("/api/v1/missing", BEARER)).status).toBe(404);
  }
});

test("used twice in one app (a named plugin), a request is still asked once", async () => {
  const { limits, asked } = recording();
  const app = new Elysia()
    .use(
      requestContext({
        config: loadConfig({}),
        logger: createLogger("error", () => {}),
        clientIp: createClientIpResolver([]),
      }),
    )
    .use(rateLimitPlugin(limits))
    .use(rateLimitPlugin(limits))
    .get("/api/v1/ok", () => "ok");
  const response = await app.handle(
    setPeerAddress(new Request("http://localhost/api/v1/ok"), "10.9.0.2"),
  );
  expect(response.status).toBe(200);
  expect(asked).toHaveLength(1);
});

const meta = (client: string): RequestMeta => ({
  id: "r",
  path: "/api/v1/tickets",
  startedAt: 0,
  clientIp: client,
  client,
  secure: false,
});

test("throttled: a refused credential is the one more question; another error or a success is not", async () => {
  const { limits, asked } = recording();
  const headers: Headers = {};
  expect(await throttled(limits, keyed, meta("10.9.1.1"), headers, async () => "ok")).toBe("ok");
  const missing = notFound();
  const lookup404 = throttled(limits, keyed, meta("10.9.1.1"), headers, async () => {
    throw missing;
  });
  await expect(lookup404).rejects.toBe(missing);
  expect(asked).toEqual([
    { call: "blocked", client: "10.9.1.1" },
    { call: "blocked", client: "10.9.1.1" },
  ]);
  const invalid = unauthenticated("Invalid API key");
  const failing = async () => {
    throw invalid;
  };
  await expect(throttled(limits, keyed, meta("10.9.1.1"), headers, failing)).rejects.toBe(invalid);
  expect(asked.at(-1)).toEqual({ call: "failedAuth", surface: keyed, client: "10.9.1.1" });
  // install links count their 404 too
  const link = (error: unknown) => error === missing;
  const linkAttempt = throttled(
    limits,
    credentialSurface,
    undefined,
    headers,
    async () => {
      throw missing;
    },
    link,
  );
  await expect(linkAttempt).rejects.toBe(missing);
  expect(asked.at(-1)).toEqual({
    call: "failedAuth",
    surface: credentialSurface,
    client: "unknown",
  });
});

test("throttled: an empty bucket's 429 replaces the 401, and a blocked client is never looked up", async () => {
  for (const later of [false, true]) {
    const { limits } = recording({
      failedAuth: (_s, _c, headers) =>
        later ? Promise.resolve(refusing(headers)) : refusing(headers),
    });
    const headers: Headers = {};
    const attempt = throttled(limits, keyed, meta("10.9.2.1"), headers, async () => {
      throw unauthenticated("Invalid API key");
    });
    await expect(attempt).rejects.toBe(ipRefusal());
    expect(headers["x-ratelimit-remaining"]).toBe("0");
  }
  let looked = 0;
  const { limits } = recording({ blocked: (_c, headers) => refusing(headers) });
  // refused at once, as a throw: no promise is made for a client that is blocked
  let thrown: unknown;
  try {
    throttled(limits, keyed, meta("10.9.2.2"), {}, async () => {
      looked++;
      return "ok";
    });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBe(ipRefusal());
  expect(looked).toBe(0);
});

test("throttled settles at once when the attempt does: a value, or the 429 that replaces a 401", () => {
  const { limits } = recording();
  expect(throttled(limits, keyed, meta("10.9.2.3"), {}, () => "cached")).toBe("cached");
  const { limits: empty } = recording({ failedAuth: (_s, _c, headers) => refusing(headers) });
  const headers: Headers = {};
  let thrown: unknown;
  try {
    throttled(empty, keyed, meta("10.9.2.4"), headers, () => {
      throw unauthenticated("Invalid API key");
    });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBe(ipRefusal());
  expect(headers["x-ratelimit-remaining"]).toBe("0");
});

test("limitKey asks with the key and the client, and throws a refusal", async () => {
  const key = {
    apiKey: { id: "k9" },
    organization: { id: "o", plan: "FREE" as const, dailyQuota: null, unlimitedQuota: false },
  };
  const { limits, asked } = recording();
  const surface: HttpSurface = keyed;
  expect(limitKey(limits, surface, meta("10.9.3.1"), key, {})).toBeUndefined();
  expect(limitKey(limits, surface, undefined, key, {})).toBeUndefined();
  expect(asked).toEqual([
    { call: "limit", surface, client: "10.9.3.1", key: "k9" },
    { call: "limit", surface, client: "unknown", key: "k9" },
  ]);
  const { limits: now } = recording({ limit: (_s, _c, _k, headers) => refusing(headers) });
  expect(() => limitKey(now, surface, undefined, key, {})).toThrow("Too many requests");
  const { limits: later } = recording({ limit: (_s, _c, _k, h) => Promise.resolve(refusing(h)) });
  await expect(limitKey(later, surface, undefined, key, {}) as Promise<void>).rejects.toBe(
    ipRefusal(),
  );
  const { limits: allowedLater } = recording({ limit: () => Promise.resolve(undefined) });
  expect(await limitKey(allowedLater, surface, undefined, key, {})).toBeUndefined();
});
