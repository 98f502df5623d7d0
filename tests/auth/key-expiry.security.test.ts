import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * The exact expiry instant, on the injected clock: a key works until the millisecond before
 * its `expiresAt` and is refused AT it (`expiresAt <= now`: docs/decisions.md, "tests"), on
 * interface A, interface B and GraphQL alike.
 */
const HOUR = 3_600_000;

function suite(driver: DriverName) {
  const clock = manualClock(Date.parse("2026-06-01T08:00:00.000Z"));
  const { app, make } = useTestApp(driver, { now: clock.now });

  /** interface A, interface B and GraphQL, each named for a readable failure */
  const calls = (key: string) =>
    Promise.all([
      send(app, "/api/v1/whoami", { key }).then((r) => ["A", r] as const),
      send(app, "/api/projects", { key }).then((r) => ["B", r] as const),
      send(app, "/graphql", {
        key,
        body: { query: "{ projects { pagination { total } } }" },
      }).then((r) => ["GraphQL", r] as const),
    ]);

  test("accepted 1 ms before expiresAt, refused with 401 API key expired at it and after", async () => {
    const expiresAt = new Date(clock.now().getTime() + HOUR);
    const { key } = await make.member({ expiresAt, scopes: ["projects:read"] });
    const me = await (await send(app, "/api/v1/whoami", { key })).json();
    expect(me.apiKey.expiresAt).toBe(expiresAt.toISOString());

    clock.advance(HOUR - 1);
    expect(clock.now().getTime()).toBe(expiresAt.getTime() - 1);
    for (const [name, response] of await calls(key)) {
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
    }

    clock.advance(1);
    expect(clock.now().getTime()).toBe(expiresAt.getTime());
    for (const [name, response] of await calls(key)) {
      expect({ name, status: response.status, body: await response.json() }).toEqual({
        name,
        status: 401,
        body: { error: "API key expired" },
      });
    }

    clock.advance(1);
    const later = await send(app, "/api/v1/whoami", { key });
    expect(later.status).toBe(401);
    expect(await later.json()).toEqual({ error: "API key expired" });
  });
}

describeEachDriver("API key expiry instant (security)", suite);
