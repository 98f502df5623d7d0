import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  OrgitError,
  PermissionDeniedError,
  RateLimitError,
  type ResponseMeta,
} from "../src/index.ts";
import {
  RELAXED_LIMITS,
  rejection,
  START_TIMEOUT_MS,
  startService,
  type TestOrg,
  type TestService,
} from "./helpers.ts";

/**
 * Every error class the real service can produce on demand: 400, 401, 403, 404, 409 and the
 * daily-quota 429. (The per-key/burst 429 and its retry are in retries.test.ts, against a
 * service with a low burst; 5xx and network errors need a stub, also there.)
 */
let service: TestService;
let org: TestOrg;

beforeAll(async () => {
  service = await startService({ label: "client errors", env: RELAXED_LIMITS });
  org = await service.newOrg();
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  await service?.stop();
});

test("400: BadRequestError with details, the request id and a readable message", async () => {
  const client = org.client();
  const error = (await rejection(
    client.tickets.create({ title: "abc", description: "too short" }),
  )) as BadRequestError;
  expect(error).toBeInstanceOf(BadRequestError);
  expect(error).toBeInstanceOf(OrgitError);
  expect(error.name).toBe("BadRequestError");
  expect(error.status).toBe(400);
  expect(error.error).toBe("Validation failed");
  expect(error.details?.map((d) => d.path)).toEqual([["title"], ["description"]]);
  expect(error.details?.every((d) => d.message.length > 0)).toBe(true);
  const meta = client.lastResponse as ResponseMeta;
  expect(error.requestId).toBe(meta.requestId as string);
  expect(error.meta).toBe(meta);
  expect(error.body).toEqual({ error: "Validation failed", details: error.details });
  expect(error.message).toStartWith("400 Validation failed: title: ");
  expect(error.message).toContain("; description: ");
  expect(error.message).toEndWith(`(request id ${meta.requestId})`);
  // 400s carry the rate-limit and quota headers too
  expect(meta.rateLimit?.limit).toBeGreaterThan(0);
  expect(typeof meta.quota?.used).toBe("number");
});

test("400 for a bad list parameter names it", async () => {
  const error = (await rejection(org.client().tickets.list({ limit: 500 }))) as BadRequestError;
  expect(error).toBeInstanceOf(BadRequestError);
  expect(error.details?.[0]?.path).toEqual(["limit"]);
});

test("401: AuthenticationError for an invalid key and for no key at all", async () => {
  const invalid = (await rejection(
    service.client(`orgit_${"a".repeat(40)}`).whoami(),
  )) as AuthenticationError;
  expect(invalid).toBeInstanceOf(AuthenticationError);
  expect(invalid.status).toBe(401);
  expect(invalid.error).toBe("Invalid API key");
  expect(invalid.requestId).toMatch(/\S+/);

  const missing = (await rejection(service.client(undefined).whoami())) as AuthenticationError;
  expect(missing).toBeInstanceOf(AuthenticationError);
  expect(missing.error).toBe("Missing API key");
});

test("403: PermissionDeniedError for a missing scope and for a FREE plan on interface A", async () => {
  const readOnly = await service.newOrg({ scopes: ["tickets:read"] });
  const scope = (await rejection(
    readOnly.client().tickets.create({ title: "Not allowed", description: "No write scope here." }),
  )) as PermissionDeniedError;
  expect(scope).toBeInstanceOf(PermissionDeniedError);
  expect(scope.status).toBe(403);
  expect(scope.error).toBe("Missing scope: tickets:write");

  const free = await service.newOrg({ plan: "FREE" });
  const plan = (await rejection(free.client().whoami())) as PermissionDeniedError;
  expect(plan).toBeInstanceOf(PermissionDeniedError);
  expect(plan.error).toBe("API access requires the Pro plan");
  // interface B works on FREE
  expect((await free.client().projects.list()).data).toEqual([]);
});

test("404: NotFoundError for an unknown project", async () => {
  const error = (await rejection(org.client().projects.get(crypto.randomUUID()))) as NotFoundError;
  expect(error).toBeInstanceOf(NotFoundError);
  expect(error.status).toBe(404);
  expect(error.error).toBe("Project not found");
  expect(error.message).toStartWith("404 Project not found (request id ");
});

test("409: ConflictError when an Idempotency-Key is reused with another body", async () => {
  const client = org.client();
  const key = crypto.randomUUID();
  await client.tickets.create(
    { title: "First body", description: "The first request's body." },
    { idempotencyKey: key },
  );
  const error = (await rejection(
    client.tickets.create(
      { title: "Other body", description: "Another body, same key." },
      { idempotencyKey: key },
    ),
  )) as ConflictError;
  expect(error).toBeInstanceOf(ConflictError);
  expect(error.status).toBe(409);
  expect(error.error).toMatch(/Idempotency-Key/);
});

test("429 daily quota: RateLimitError with isQuota, limit, used, window, thrown at once", async () => {
  const limited = await service.newOrg({ dailyQuota: 2 });
  const seen: ResponseMeta[] = [];
  // default maxRetries 2: the quota's Retry-After (3600 s) is beyond maxRetryWaitMs, no retry
  const client = limited.client({ onResponse: (meta) => seen.push(meta) });
  await client.whoami();
  await client.whoami();
  expect(client.lastResponse?.quota).toEqual({ limit: 2, used: 2, remaining: 0 });
  const started = Date.now();
  const error = (await rejection(client.whoami())) as RateLimitError;
  expect(Date.now() - started).toBeLessThan(1000);
  expect(error).toBeInstanceOf(RateLimitError);
  expect(error.status).toBe(429);
  expect(error.error).toBe("API quota exceeded");
  expect(error.isQuota).toBe(true);
  expect(error.limit).toBe(2);
  expect(error.used).toBe(2);
  expect(error.window).toBe("24h");
  expect(error.retryAfter).toBe(3600);
  expect(seen.map((m) => m.status)).toEqual([200, 200, 429]);
});
