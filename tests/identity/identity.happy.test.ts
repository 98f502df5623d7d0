import { expect, test } from "bun:test";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { eventually } from "../helpers/webhook-receiver.ts";

function suite(driver: DriverName) {
  const logs: Record<string, unknown>[] = [];

  const { app, db, make } = useTestApp(driver, { logs });

  test("GET /api/v1/whoami answers organization, user with effective role, and key metadata", async () => {
    const org = await make.organization({ name: "Globex" });
    const { user, key } = await make.member({
      organizationId: org.id,
      role: "technician",
      scopes: ["tickets:read", "equipment:read"],
      expiresIn: "DAYS_30",
    });
    const response = await send(app, "/api/v1/whoami", { key });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      organization: { id: org.id, name: "Globex" },
      user: { id: user.id, role: "technician" },
      apiKey: {
        name: "test key",
        scopes: ["tickets:read", "equipment:read"],
        expiresAt: expect.any(String),
      },
    });
    const expiresInDays = (Date.parse(body.apiKey.expiresAt) - Date.now()) / 86_400_000;
    expect(expiresInDays).toBeGreaterThan(29.9);
    expect(expiresInDays).toBeLessThanOrEqual(30);
  });

  test("whoami.apiKey.expiresAt is null for a key that never expires", async () => {
    const { key } = await make.member({ expiresIn: "NEVER" });
    const body = await (await send(app, "/api/v1/whoami", { key })).json();
    expect(body.apiKey.expiresAt).toBeNull();
  });

  test("a custom role with a technician seat has API access and reports its own name", async () => {
    const org = await make.organization();
    await make.role(org.id, "night-shift", "TECHNICIAN", ["tickets.view_all"]);
    const { key } = await make.member({ organizationId: org.id, role: "night-shift" });
    const body = await (await send(app, "/api/v1/whoami", { key })).json();
    expect(body.user.role).toBe("night-shift");
  });

  test("GET /api/v1/health answers { status: ok } for a valid key", async () => {
    const { key } = await make.member();
    const response = await send(app, "/api/v1/health", { key });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  test("every response carries X-Request-Id, a sane incoming one is kept", async () => {
    const { key } = await make.member();
    const generated = await send(app, "/api/v1/health", { key });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await send(app, "/api/v1/health", {
      key,
      headers: { "x-request-id": "trace-abc.123" },
    });
    expect(echoed.headers.get("x-request-id")).toBe("trace-abc.123");
    const replaced = await send(app, "/api/v1/health", {
      key,
      headers: { "x-request-id": "bad id\twith spaces" },
    });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const notFound = await send(app, "/nowhere");
    expect(notFound.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("one JSON access-log line per request, with request id, status and organization", async () => {
    const { key, organizationId } = await make.member();
    const response = await send(app, "/api/v1/whoami", { key });
    const id = response.headers.get("x-request-id");
    // the access line is written after the response: wait for it, not for a fixed time
    const mine = (l: Record<string, unknown>) => l.msg === "request" && l.requestId === id;
    await eventually(() => logs.some(mine), "the access-log line");
    const lines = logs.filter((l) => l.msg === "request" && l.requestId === id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      method: "GET",
      path: "/api/v1/whoami",
      status: 200,
      organizationId,
      ip: "127.0.0.1",
    });
    expect(JSON.stringify(lines[0])).not.toContain(key);
  });

  test("last use of a key is recorded by the batched flush, not per request", async () => {
    const { key, apiKey } = await make.member();
    const queriesBefore = db.database.stats.queries;
    await send(app, "/api/v1/whoami", { key });
    await send(app, "/api/v1/whoami", { key });
    // one key lookup and one quota total, then cached: no write on the request path
    expect(db.database.stats.queries - queriesBefore).toBe(2);
    await app.services.keys.flushLastUsed();
    const row = await db.database.db.query.apiKeys.findFirst({
      where: (k, { eq }) => eq(k.id, apiKey.id),
    });
    expect(row?.lastUsedAt).toBeInstanceOf(Date);
  });
}

describeEachDriver("identity (happy)", suite);
