import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import {
  ALL_PROJECT_SCOPES,
  outboxEvents,
  storedProjects,
  subscribeAll,
} from "../helpers/projects.ts";

/**
 * Interface B's per-organization plan limit (FREE: 100 requests per minute, docs/limits.md) exceeded, on
 * the injected clock with interface A's limits out of the way (the harness's roomy
 * defaults): the refused request changes nothing, answers the 429 body and headers, and only
 * that organization is limited.
 */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  const rateHeaders = (response: Response) => ({
    limit: response.headers.get("x-ratelimit-limit"),
    remaining: response.headers.get("x-ratelimit-remaining"),
    reset: response.headers.get("x-ratelimit-reset"),
    retryAfter: response.headers.get("retry-after"),
    policy: response.headers.get("ratelimit-policy"),
    ratelimit: response.headers.get("ratelimit"),
  });

  test("FREE: the 101st request of the minute, a create, → 429 with the rate-limit headers, and nothing is created", async () => {
    const free = await make.member({ plan: "FREE", scopes: ALL_PROJECT_SCOPES });
    await subscribeAll(db.database, free.organizationId);
    let last: Response | undefined;
    for (let i = 0; i < 100; i++) last = await send(app, "/api/projects", { key: free.key });
    expect(last?.status).toBe(200);
    expect(rateHeaders(last as Response)).toMatchObject({ limit: "100", remaining: "0" });

    const refused = await send(app, "/api/projects", { key: free.key, body: { name: "Over" } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ error: "Rate limit exceeded", retryAfter: 1 });
    expect(rateHeaders(refused)).toEqual({
      limit: "100",
      remaining: "0",
      reset: "60",
      retryAfter: "1",
      policy: '"org";q=100;w=60',
      ratelimit: '"org";r=0;t=60',
    });
    expect(await storedProjects(db.database, free.organizationId)).toEqual([]);
    expect(await outboxEvents(db.database, free.organizationId)).toEqual([]);
  });

  test("the limit is per organization: another FREE organization and another key of the same one", async () => {
    const first = await make.member({ plan: "FREE", scopes: ALL_PROJECT_SCOPES });
    const sameOrg = await make.member({
      organizationId: first.organizationId,
      scopes: ALL_PROJECT_SCOPES,
    });
    const other = await make.member({ plan: "FREE", scopes: ALL_PROJECT_SCOPES });
    for (let i = 0; i < 100; i++) await send(app, "/api/projects", { key: first.key });
    // a second key does not reset the organization's minute
    expect((await send(app, "/api/projects", { key: sameOrg.key })).status).toBe(429);
    const fresh = await send(app, "/api/projects", { key: other.key });
    expect(fresh.status).toBe(200);
    expect(rateHeaders(fresh)).toMatchObject({ limit: "100", remaining: "99" });
  });

  test("Retry-After is honest: one token back after 0.6 s, the whole minute after 60 s", async () => {
    const free = await make.member({ plan: "FREE", scopes: ALL_PROJECT_SCOPES });
    for (let i = 0; i < 100; i++) await send(app, "/api/projects", { key: free.key });
    expect((await send(app, "/api/projects", { key: free.key })).status).toBe(429);
    clock.advance(599);
    expect((await send(app, "/api/projects", { key: free.key })).status, "not yet").toBe(429);
    clock.advance(1);
    const back = await send(app, "/api/projects", { key: free.key, body: { name: "Later" } });
    expect(back.status).toBe(201);
    expect((await send(app, "/api/projects", { key: free.key })).status).toBe(429);
    clock.advance(60_000);
    const full = await send(app, "/api/projects", { key: free.key });
    expect(full.status).toBe(200);
    expect(rateHeaders(full)).toMatchObject({ remaining: "99" });
  });
}

describeEachDriver("projects API plan limit", suite);
