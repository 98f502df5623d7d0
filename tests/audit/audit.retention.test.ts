import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { OrgitApp } from "../../src/app.ts";
import { DAY_MS, dayOf, dayPartitions, rowsOf } from "../../src/db/queries/audit-partitions.ts";
import { organizations } from "../../src/db/schema/index.ts";
import { AuditMaintenance } from "../../src/modules/audit/maintenance.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  type FreshDatabase,
  factories,
  freshDatabase,
} from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";
import { sendRecorded, storedEntries } from "./helpers.ts";

/**
 * Retention per plan (docs/decisions.md §15): FREE 7 days and PRO 90 in small
 * batched deletes, ENTERPRISE 400 by dropping whole day partitions; one upkeep turn across
 * instances. The clock is injected: nothing sleeps.
 */
function suite(driver: DriverName) {
  const clock = manualClock(Date.UTC(2026, 4, 1, 12, 0, 0));
  let fresh: FreshDatabase;
  let app: OrgitApp;
  beforeAll(async () => {
    fresh = await freshDatabase(driver);
    app = await buildTestApp(fresh.database, { now: clock.now });
  });
  afterAll(async () => {
    await app.stop();
    await fresh.drop();
  });

  const maintenance = (database = app.services.database) =>
    new AuditMaintenance(database, app.services.logger, clock.now, {
      checkMs: 0,
      deleteBatch: 2, // several batches, never one large delete
    });
  const requestsOf = async (organizationId: string) =>
    (await storedEntries(app.services.database.db, organizationId)).length;

  test("rows leave at their plan's retention and the oldest day's partition is dropped whole", async () => {
    // what the other tests recorded outlives every plan's retention and goes first, and the
    // next upkeep turn is free: the counts below are this test's own, in any order
    clock.advance(401 * DAY_MS);
    await maintenance().run();
    clock.advance(2 * 60 * 60_000);
    const make = factories(app);
    const planned = async (plan: "FREE" | "PRO" | "ENTERPRISE") => {
      const member = await make.member({ plan: "PRO" });
      for (let i = 0; i < 5; i++) await sendRecorded(app, "/api/v1/whoami", { key: member.key });
      await app.services.database.db
        .update(organizations)
        .set({ plan })
        .where(eq(organizations.id, member.organizationId));
      return member.organizationId;
    };
    const free = await planned("FREE");
    const pro = await planned("PRO");
    const enterprise = await planned("ENTERPRISE");
    await app.services.auditTrail.flush();
    const firstDay = dayOf(clock.now().getTime());
    expect(await requestsOf(free)).toBe(6); // 5 requests and the key's creation

    const job = maintenance();
    const first = await job.run();
    expect(first.ran).toBe(true);
    const ahead = await dayPartitions(app.services.database.db);
    expect(ahead, "today and three days ahead").toEqual(
      expect.arrayContaining([0, 1, 2, 3].map((d) => firstDay + d * DAY_MS)),
    );
    expect(await requestsOf(free)).toBe(6);

    clock.advance(8 * DAY_MS);
    const week = await job.run();
    expect(week.deleted).toEqual({ FREE: 6, PRO: 0 });
    expect([await requestsOf(free), await requestsOf(pro), await requestsOf(enterprise)]).toEqual([
      0, 6, 6,
    ]);

    clock.advance(83 * DAY_MS); // 91 days
    expect((await job.run()).deleted).toEqual({ FREE: 0, PRO: 6 });
    expect(await requestsOf(enterprise)).toBe(6);
    expect(await dayPartitions(app.services.database.db)).toContain(firstDay);

    clock.advance(310 * DAY_MS); // 401 days
    const year = await job.run();
    expect(year.droppedDays).toContain(firstDay);
    expect(await dayPartitions(app.services.database.db)).not.toContain(firstDay);
    expect(await requestsOf(enterprise)).toBe(0);
  });

  test("two instances asking for the same turn: exactly one runs it", async () => {
    clock.advance(2 * 60 * 60_000); // past the last turn's period
    const other = await fresh.openAnother();
    const results = await Promise.all([maintenance().run(), maintenance(other).run()]);
    expect(results.map((r) => r.ran).sort()).toEqual([false, true]);
    const again = await maintenance().run();
    expect(again.ran, "the turn is taken until its period ends").toBe(false);
  });

  test("the upkeep is the audit feature's job: each instance starts it, one takes the turn", async () => {
    const other = await freshDatabase(driver);
    const at = clock.now();
    const instances = await Promise.all(
      [other.database, await other.openAnother()].map((database) =>
        buildTestApp(database, { now: clock.now, backgroundJobs: true }),
      ),
    );
    try {
      const db = other.database.db;
      const claims = async () =>
        rowsOf<{ name: string; next_run_at: Date | string }>(
          await db.execute(sql`select name, next_run_at from maintenance_claims`),
        ).filter((row) => row.name === "audit-log");
      await eventually(async () => (await claims()).length === 1, "the first upkeep turn");
      const [claim] = await claims();
      expect(new Date(claim?.next_run_at ?? 0).getTime(), "the next turn in an hour").toBe(
        at.getTime() + 60 * 60_000,
      );
      const today = dayOf(at.getTime());
      await eventually(async () => {
        const days = await dayPartitions(db);
        return [0, 1, 2, 3].every((d) => days.includes(today + d * DAY_MS));
      }, "partitions created three days ahead by the job");
    } finally {
      for (const instance of instances) await instance.stop();
      await other.drop();
    }
  });

  test("a request on a day no partition exists for yet is still recorded", async () => {
    clock.advance(30 * DAY_MS); // beyond the partitions created ahead
    const member = await factories(app).member();
    await sendRecorded(app, "/api/v1/whoami", { key: member.key });
    await app.services.auditTrail.flush();
    expect(app.services.auditTrail.stats.dropped).toBe(0);
    expect(await requestsOf(member.organizationId)).toBe(2);
    expect(await dayPartitions(app.services.database.db)).toContain(dayOf(clock.now().getTime()));
  });
}

describeEachDriver("audit trail: retention", suite);
