import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { freePort } from "../../../tests/helpers/service-process.ts";
import {
  Orgit,
  OrgitConnectionError,
  OrgitError,
  OrgitTimeoutError,
  RateLimitError,
  type ResponseMeta,
  ServerError,
} from "../src/index.ts";
import {
  rejection,
  START_TIMEOUT_MS,
  startRecorder,
  startService,
  type TestService,
} from "./helpers.ts";

/**
 * Retries. The 429s come from a REAL service started with RATE_LIMIT_BURST_PER_SEC=2 (the 3rd
 * request of a key within a second is refused with Retry-After: 1). 5xx answers, slow answers
 * and refused connections cannot be produced by the real service on demand, so those tests
 * use a local stub server (startRecorder) or a closed port instead.
 */
let service: TestService;

beforeAll(async () => {
  service = await startService({
    label: "client retries",
    env: {
      RATE_LIMIT_BURST_PER_SEC: "2",
      RATE_LIMIT_IP_PER_MIN: "100000",
      RATE_LIMIT_KEY_PER_MIN: "100000",
    },
  });
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await service?.stop();
});

describe("429 from the real service", () => {
  test("with maxRetries 0 the burst 429 is a RateLimitError with retryAfter", async () => {
    const org = await service.newOrg({ client: { maxRetries: 0 } });
    const client = org.client();
    let error: unknown;
    for (let i = 0; i < 5 && error === undefined; i++) {
      error = await client.whoami().then(
        () => undefined,
        (e: unknown) => e,
      );
    }
    const limited = error as RateLimitError;
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(limited.status).toBe(429);
    expect(limited.error).toBe("API key rate limit exceeded");
    expect(limited.isQuota).toBe(false);
    expect(limited.retryAfter).toBe(1);
    expect(limited.body).toEqual({ error: "API key rate limit exceeded", retryAfter: 1 });
    expect(limited.meta?.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
    expect(limited.meta?.headers.get("retry-after")).toBe("1");
  });

  test("a 429 is retried after Retry-After and then succeeds", async () => {
    const org = await service.newOrg();
    const seen: { status: number; attempt: number; at: number }[] = [];
    const client = org.client({
      onResponse: (meta) =>
        seen.push({ status: meta.status, attempt: meta.attempt, at: Date.now() }),
    });
    // the 3rd call within a second meets the burst limit; the client waits and retries
    // (calls until one was refused, in case a slow machine spreads them over more than a second)
    for (let i = 0; i < 10 && !seen.some((s) => s.status === 429); i++) await client.whoami();
    const refused = seen.findIndex((s) => s.status === 429);
    expect(refused).toBeGreaterThanOrEqual(0);
    const [first429, next] = [seen[refused], seen[refused + 1]];
    expect(next?.status).toBe(200);
    expect(next?.attempt).toBe((first429?.attempt ?? 0) + 1);
    // Retry-After: 1 → the retry went out about a second later (timer slack allowed)
    expect((next?.at ?? 0) - (first429?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(client.lastResponse?.status).toBe(200);
  });
});

describe("5xx and network errors (local stub)", () => {
  test("a GET answered 503 is retried with backoff and then succeeds", async () => {
    const stub = startRecorder((_, i) =>
      i === 0
        ? Response.json({ error: "Unavailable" }, { status: 503 })
        : Response.json({ status: "ok" }),
    );
    try {
      const seen: ResponseMeta[] = [];
      const client = new Orgit({
        baseUrl: stub.base,
        apiKey: "orgit_x",
        onResponse: (m) => seen.push(m),
      });
      expect(await client.health()).toEqual({ status: "ok" });
      expect(seen.map((m) => [m.status, m.attempt])).toEqual([
        [503, 0],
        [200, 1],
      ]);
      const waited = (stub.requests[1]?.at ?? 0) - (stub.requests[0]?.at ?? 0);
      expect(waited).toBeGreaterThanOrEqual(350); // 0.5 s − 25 % jitter
      expect(stub.requests[0]?.headers["user-agent"]).toBe("orgit-typescript/0.1.0");
      expect(stub.requests[0]?.headers.authorization).toBe("Bearer orgit_x");
    } finally {
      await stub.stop();
    }
  });

  test("when every attempt answers 5xx, ServerError after maxRetries + 1 attempts", async () => {
    const stub = startRecorder(() =>
      Response.json(
        { error: "Internal server error" },
        { status: 500, headers: { "x-request-id": "req-1" } },
      ),
    );
    try {
      const client = new Orgit({ baseUrl: stub.base, apiKey: "orgit_x", maxRetries: 1 });
      const error = (await rejection(client.projects.get("p1"))) as ServerError;
      expect(error).toBeInstanceOf(ServerError);
      expect(error.status).toBe(500);
      expect(error.requestId).toBe("req-1");
      expect(error.message).toBe("500 Internal server error (request id req-1)");
      expect(stub.requests).toHaveLength(2);
    } finally {
      await stub.stop();
    }
  });

  test("a POST with its generated Idempotency-Key is retried with the same key", async () => {
    const ticket = { id: "t1", title: "Retried" };
    const stub = startRecorder((_, i) =>
      i === 0
        ? Response.json({ error: "Bad gateway" }, { status: 502 })
        : Response.json(ticket, { status: 201 }),
    );
    try {
      const client = new Orgit({ baseUrl: stub.base, apiKey: "orgit_x" });
      const created = await client.tickets.create({ title: "Retried", description: "Sent twice." });
      expect(created as unknown).toEqual(ticket);
      expect(stub.requests).toHaveLength(2);
      const [first, second] = stub.requests.map((r) => r.headers["idempotency-key"]);
      expect(first).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(second).toBe(first as string);
      expect(stub.requests[0]?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(stub.requests[1]?.body ?? "")).toEqual({
        title: "Retried",
        description: "Sent twice.",
      });
    } finally {
      await stub.stop();
    }
  });

  test("a POST without Idempotency-Key (ingest, delivery retry) and a PATCH are NOT retried on 5xx", async () => {
    const stub = startRecorder(() => Response.json({ error: "Unavailable" }, { status: 503 }));
    try {
      const client = new Orgit({ baseUrl: stub.base, apiKey: "orgit_x" });
      const calls = [
        () => client.alerts.ingest({ source: "s", title: "t" }),
        () => client.webhooks.retryDelivery("w1", "d1"),
        () => client.projects.update("p1", { name: "n" }),
      ];
      for (const call of calls) {
        const before = stub.requests.length;
        expect(await rejection(call())).toBeInstanceOf(ServerError);
        expect(stub.requests.length - before).toBe(1);
      }
      expect(stub.requests[0]?.headers.authorization).toBeUndefined(); // ingest is keyless
      expect(stub.requests[0]?.headers["idempotency-key"]).toBeUndefined();
    } finally {
      await stub.stop();
    }
  });

  test("a 429 asking for longer than maxRetryWaitMs is thrown at once", async () => {
    const stub = startRecorder(() =>
      Response.json(
        { error: "Rate limit exceeded", retryAfter: 5 },
        { status: 429, headers: { "retry-after": "5" } },
      ),
    );
    try {
      const client = new Orgit({ baseUrl: stub.base, apiKey: "orgit_x", maxRetryWaitMs: 1000 });
      const error = (await rejection(client.projects.list())) as RateLimitError;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.retryAfter).toBe(5);
      expect(stub.requests).toHaveLength(1);
    } finally {
      await stub.stop();
    }
  });

  test("a refused connection is an OrgitConnectionError without status, retried for a GET", async () => {
    const port = await freePort(); // nothing listens there
    let calls = 0;
    const client = new Orgit({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: "orgit_x",
      maxRetries: 1,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = (await rejection(client.whoami())) as OrgitConnectionError;
    expect(error).toBeInstanceOf(OrgitConnectionError);
    expect(error).toBeInstanceOf(OrgitError);
    expect(error).not.toBeInstanceOf(OrgitTimeoutError);
    expect(error.status).toBeUndefined();
    expect(error.message).toStartWith(`GET http://127.0.0.1:${port}/api/v1/whoami failed: `);
    expect(calls).toBe(2);
    expect(client.lastResponse).toBeUndefined();
  });

  test("no answer within timeoutMs is an OrgitTimeoutError", async () => {
    const stub = startRecorder(async () => {
      await Bun.sleep(2000);
      return Response.json({});
    });
    try {
      const client = new Orgit({
        baseUrl: stub.base,
        apiKey: "orgit_x",
        timeoutMs: 200,
        maxRetries: 0,
      });
      const started = Date.now();
      const error = (await rejection(client.whoami())) as OrgitTimeoutError;
      expect(error).toBeInstanceOf(OrgitTimeoutError);
      expect(error).toBeInstanceOf(OrgitConnectionError);
      expect(error.message).toBe(`GET ${stub.base}/api/v1/whoami timed out after 200 ms`);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await stub.stop();
    }
  });
});
