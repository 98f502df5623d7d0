import { expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { sseEvents } from "../helpers/sse.ts";
import { eventually } from "../helpers/wait.ts";

/**
 * No notification tells that a key expired: each instance's heartbeat authenticates its open
 * streams' keys again, so a stream ends soon after its key expires (docs/decisions.md §21).
 */
describeEachDriver("GraphQL subscriptions: a key that expires", (driver) => {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, {
    now: clock.now,
    liveSlotTimes: { ttlMs: 5_000, renewMs: 100 },
  });

  test("an open stream ends at the first heartbeat after its key expired, and frees its slot", async () => {
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    const { key, apiKey } = await make.member({ scopes: ["tickets:read"], expiresAt });
    const response = await send(app, "/graphql", {
      key,
      method: "POST",
      headers: { accept: "text/event-stream" },
      body: { query: "subscription { ticketEvents { type } }" },
    });
    expect(response.status).toBe(200);
    const stream = sseEvents(response);
    await Bun.sleep(300); // heartbeats while the key is valid keep the stream
    expect(app.services.live.openStreams(apiKey.id)).toBe(1);
    clock.advance(61_000);
    await expect(stream.next(3_000)).rejects.toThrow("the stream ended");
    await eventually(() => app.services.live.openStreams(apiKey.id) === 0, "the slot back");
    await eventually(async () => (await app.services.live.heldStreams(apiKey.id)) === 0, "freed");
  });
});
