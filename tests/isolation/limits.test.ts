import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { quotaTotals } from "../../src/db/queries/quota.ts";
import { idempotencyKeys, quotaUsage } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { expectUntouched, flushBatches, twoOrganizations } from "./helpers.ts";

const DAY = 86_400_000;

/** Idempotency records and the daily quota across two organizations, on an injected clock. */
function suite(driver: DriverName) {
  const clock = manualClock();
  const { app, db, make } = useTestApp(driver, { now: clock.now });

  const post = (key: string, idempotencyKey: string, name: string) =>
    send(app, "/api/projects", {
      key,
      headers: { "idempotency-key": idempotencyKey },
      body: { name },
    });

  test("idempotency: the same Idempotency-Key in two organizations creates two projects; neither replays nor blocks the other", async () => {
    const { a, b } = await twoOrganizations(make);
    const first = await post(a.key, "order-1", "Same body");
    expect(first.status).toBe(201);
    const aProject = await first.json();
    await expectUntouched(app, a.organizationId, async () => {
      const mine = await post(b.key, "order-1", "Same body");
      expect(mine.status, "not A's replay").toBe(201);
      expect(mine.headers.get("idempotent-replayed")).toBeNull();
      const bProject = await mine.json();
      expect(bProject.id).not.toBe(aProject.id);
      // B's own retry replays B's project, never A's
      const again = await post(b.key, "order-1", "Same body");
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect((await again.json()).id).toBe(bProject.id);
      // another body under A's key name is B's own business, not a 409 about A's request
      expect((await post(b.key, "order-2", "Other")).status).toBe(201);
      const list = await (await send(app, "/api/projects", { key: b.key })).json();
      expect(list.data.map((p: { name: string }) => p.name).sort()).toEqual(["Other", "Same body"]);
    });
  });

  test("idempotency: B's failed request gives back B's key only; A's record of the same key still replays", async () => {
    const { a, b } = await twoOrganizations(make);
    const ticket = (key: string, body: Record<string, unknown>) =>
      send(app, "/api/v1/tickets", { key, headers: { "idempotency-key": "shared-1" }, body });
    const valid = { title: "Printer jams", description: "On every page of floor 2." };
    const first = await ticket(a.key, valid);
    expect(first.status).toBe(201);
    const aTicket = await first.json();
    await expectUntouched(app, a.organizationId, async () => {
      const failed = await ticket(b.key, { ...valid, equipmentId: crypto.randomUUID() });
      expect(failed.status, "B's request fails in the domain, after its key was reserved").toBe(
        400,
      );
    });
    const again = await ticket(a.key, valid);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.json()).id).toBe(aTicket.id);
  });

  test("idempotency: pruning A's expired records keeps B's fresh ones", async () => {
    const { a, b } = await twoOrganizations(make);
    expect((await post(a.key, "old", "A old")).status).toBe(201);
    const records = async (apiKeyId: string) =>
      (
        await db.database.db
          .select({ key: idempotencyKeys.key })
          .from(idempotencyKeys)
          .where(eq(idempotencyKeys.apiKeyId, apiKeyId))
      ).map((r) => r.key);
    // a day and an hour later, B's request prunes what expired (at most once a minute per
    // database, on this app's clock): A's old record, not B's new one
    clock.advance(25 * 3_600_000);
    expect((await post(b.key, "fresh", "B fresh")).status).toBe(201);
    expect(await records(a.apiKey.id)).toEqual([]);
    expect(await records(b.apiKey.id), "B's fresh record is kept").toEqual(["fresh"]);
  });

  test("idempotency: taking over B's abandoned reservation leaves A's reservation of the same key alone", async () => {
    const { a, b } = await twoOrganizations(make);
    // both keys reserved "job-7" at the same instant and never finished (crashed instances)
    const at = new Date(clock.now().getTime() - 5 * 60_000);
    const reservation = { key: "job-7", requestHash: "crashed", createdAt: at };
    await db.database.db.insert(idempotencyKeys).values([
      { apiKeyId: a.apiKey.id, ...reservation },
      { apiKeyId: b.apiKey.id, ...reservation },
    ]);
    await expectUntouched(app, a.organizationId, async () => {
      const taken = await post(b.key, "job-7", "B takes over");
      expect(taken.status).toBe(201);
    });
    const [aRow] = await db.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.apiKeyId, a.apiKey.id));
    expect(aRow).toMatchObject({ key: "job-7", statusCode: null, requestHash: "crashed" });
  });

  const used = (response: Response) => response.headers.get("x-quota-used");

  test("quota: one organization's requests never count against another's, in memory or stored", async () => {
    const small = await make.organization({ dailyQuota: 3 });
    const a = await make.member({ organizationId: small.id });
    const b = await make.member();
    for (let i = 1; i <= 3; i++) {
      expect(used(await send(app, "/api/v1/whoami", { key: a.key }))).toBe(String(i));
    }
    await expectUntouched(app, a.organizationId, async () => {
      for (let i = 1; i <= 5; i++) {
        const response = await send(app, "/api/v1/whoami", { key: b.key });
        expect(response.status).toBe(200);
        expect(used(response)).toBe(String(i));
      }
    });
    const exhausted = await send(app, "/api/v1/whoami", { key: a.key });
    expect(exhausted.status, "A's own quota is spent").toBe(429);
    expect((await send(app, "/api/v1/whoami", { key: b.key })).status).toBe(200);
    await flushBatches(app);
    const stored = async (organizationId: string) =>
      (
        await db.database.db
          .select({ count: quotaUsage.count })
          .from(quotaUsage)
          .where(eq(quotaUsage.organizationId, organizationId))
      ).reduce((sum, row) => sum + row.count, 0);
    expect(await stored(a.organizationId)).toBe(3);
    expect(await stored(b.organizationId)).toBe(6);
    // the totals another instance reloads for A are A's alone
    const totals = await quotaTotals(db.database, [a.organizationId], clock.now().getTime() - DAY);
    expect([...totals]).toEqual([[a.organizationId, 3]]);
  });

  test("quota: pruning B's buckets that left the window keeps A's current ones", async () => {
    const { a, b } = await twoOrganizations(make);
    const { db: d } = db.database;
    const old = new Date(clock.now().getTime() - 2 * 86_400_000);
    old.setUTCSeconds(0, 0);
    await d.insert(quotaUsage).values({ organizationId: b.organizationId, minute: old, count: 7 });
    await send(app, "/api/v1/whoami", { key: a.key });
    clock.advance(61_000);
    await send(app, "/api/v1/whoami", { key: a.key });
    await app.services.limits.quota.sync();
    const rows = await d.select().from(quotaUsage);
    const counts = (organizationId: string) =>
      rows.filter((r) => r.organizationId === organizationId).reduce((s, r) => s + r.count, 0);
    expect(counts(b.organizationId), "B's two-day-old bucket is gone").toBe(0);
    expect(counts(a.organizationId)).toBe(2);
  });
}

describeEachDriver("tenant isolation: idempotency and quota", suite);
