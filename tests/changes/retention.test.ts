import { expect, test } from "bun:test";
import { eq, inArray, sql } from "drizzle-orm";
import { changes, tickets } from "../../src/db/schema/index.ts";
import { createLogger } from "../../src/logger.ts";
import { ChangeRetention } from "../../src/modules/changes/retention.ts";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/**
 * Retention of the change feed (docs/decisions.md §12): tombstones and superseded
 * changes go after 30 days, in batches, by one instance at a time; a token from before what was
 * removed is a 410.
 */
const DAY = 86_400_000;
const body = (n: number) => ({ title: `Retained ${n}`, description: "Kept or removed by age." });

describeEachDriver("change feed retention", (driver) => {
  const clock = manualClock(Date.now());
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  const latest = async (key: string) =>
    (await getJson(app, "/api/v1/changes?limit=1000", key)).body;

  test("after 30 days tombstones and superseded changes go; an older token is 410, a fresh start sees every live record once", async () => {
    const { key, organizationId } = await make.member({
      scopes: ["tickets:read", "tickets:write"],
    });
    const kept = await (await send(app, "/api/v1/tickets", { key, body: body(1) })).json();
    const old = await latest(key);
    const gone = await (await send(app, "/api/v1/tickets", { key, body: body(2) })).json();
    const main = db.database.db;
    await main.update(tickets).set({ priority: "high" }).where(eq(tickets.id, kept.id));
    await main.delete(tickets).where(eq(tickets.id, gone.id));
    const fresh = await latest(key);

    clock.advance(29 * DAY);
    expect((await app.services.changeRetention.run())?.removed, "nothing before 30 days").toBe(0);
    expect((await getJson(app, `/api/v1/changes?since=${old.next}`, key)).status).toBe(200);

    clock.advance(2 * DAY);
    const run = await app.services.changeRetention.run();
    // kept's first upsert (superseded), gone's upsert (superseded) and its tombstone
    expect(run?.removed, "three changes removed").toBe(3);
    const rows = await main
      .select()
      .from(changes)
      .where(eq(changes.organizationId, organizationId));
    expect(
      rows.map((row) => [row.recordId, row.op]),
      "the last change of the live record stays",
    ).toEqual([[kept.id, "upsert"]]);

    const expired = await getJson(app, `/api/v1/changes?since=${old.next}`, key);
    expect(expired).toMatchObject({ status: 410, body: { error: "Sync token expired" } });
    const restart = await latest(key);
    expect(restart.data.map((c: { id: string; op: string }) => [c.id, c.op])).toEqual([
      [kept.id, "upsert"],
    ]);
    expect(restart.data[0].record.priority).toBe("high");
    const current = await getJson(app, `/api/v1/changes?since=${fresh.next}`, key);
    expect(
      { status: current.status, data: current.body.data },
      "a token past what was removed still works",
    ).toEqual({
      status: 200,
      data: [],
    });
  });

  test("a large backlog goes in batches of 1,000, one statement each", async () => {
    const { organizationId, user } = await make.member({ scopes: ["tickets:read"] });
    const main = db.database.db;
    const values = Array.from({ length: 2_100 }, (_, n) => ({
      organizationId,
      createdBy: user.id,
      ...body(n),
    }));
    const ids = (await main.insert(tickets).values(values).returning({ id: tickets.id })).map(
      (r) => r.id,
    );
    await main.delete(tickets).where(inArray(tickets.id, ids));
    // the run on a handle of its own, so that only its statements are counted: the app's own
    // handle also carries its timers' writes (audit trail, key use, quota), which a run slowed
    // by a loaded machine met; and on a clock of its own 31 days on, so that the app's clock
    // stays where the other tests expect it, whichever runs first
    const handle = await db.openAnother();
    const later = manualClock(Date.now() + 31 * DAY);
    const retention = new ChangeRetention(handle, createLogger("error"), later.now);
    const before = handle.stats.queries;
    const run = await retention.run();
    expect(
      run?.removed,
      "every upsert and tombstone of the deleted tickets",
    ).toBeGreaterThanOrEqual(4_200);
    const statements = handle.stats.queries - before;
    // and one more that folds the few per-session ticket counters
    expect(statements, "one statement per batch of 1,000 changes").toBe(
      Math.floor((run?.scanned ?? 0) / 1_000) + 2,
    );
  });

  if (driver === "postgres") {
    test("while one instance holds the claim, another's run does nothing", async () => {
      const other = await db.openAnother();
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let claimed!: () => void;
      const holding = new Promise<void>((resolve) => {
        claimed = resolve;
      });
      const held = other.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from change_retention where id = 1 for update`);
        claimed();
        await released;
      });
      await holding;
      expect(await app.services.changeRetention.run(), "skipped: another instance runs").toBeNull();
      release();
      await held;
      expect(await app.services.changeRetention.run()).not.toBeNull();
    });
  }
});
