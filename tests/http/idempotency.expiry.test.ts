import { expect, test } from "bun:test";
import { idempotencyKeys } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { projectMember, storedProjects } from "../helpers/projects.ts";

/**
 * The 24 h memory of an Idempotency-Key (docs/decisions.md §9), on the injected clock: the same
 * key and body replay the first response up to 24 h after it, and create anew after that.
 */
const DAY = 24 * 3_600_000;

function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  const create = (key: string) =>
    send(app, "/api/projects", {
      key,
      headers: { "idempotency-key": "daily-report" },
      body: { name: "Daily report" },
    });

  test("replayed exactly 24 h later; created anew 1 ms after that", async () => {
    const { key, organizationId } = await projectMember(make);
    const first = await create(key);
    expect(first.status).toBe(201);
    const project = await first.json();

    clock.advance(DAY);
    const replay = await create(key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(project);

    clock.advance(1);
    const fresh = await create(key);
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
    expect((await fresh.json()).id).not.toBe(project.id);
    expect(await storedProjects(db.database, organizationId)).toHaveLength(2);
  });

  test("a reservation abandoned for over a minute (a crashed instance) is taken over", async () => {
    const { key, apiKey, organizationId } = await projectMember(make);
    await db.database.db.insert(idempotencyKeys).values({
      apiKeyId: apiKey.id,
      key: "daily-report",
      requestHash: "whatever the crashed request hashed to",
      createdAt: new Date(clock.now().getTime() - 61_000),
    });
    const taken = await create(key);
    expect(taken.status).toBe(201);
    expect(taken.headers.get("idempotent-replayed")).toBeNull();
    expect(await storedProjects(db.database, organizationId)).toHaveLength(1);
  });
}

describeEachDriver("Idempotency-Key expiry", suite);
