import { expect, test } from "bun:test";
import { and, eq, ne } from "drizzle-orm";
import { ticketCounts, tickets } from "../../src/db/schema/index.ts";
import { describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/**
 * Ticket counters are kept per session (docs/decisions.md §12): a transaction held open never
 * makes a later ticket write of the same creator, status and priority wait, and folding the
 * sessions' counters keeps every total exact.
 */
describeEachDriver("ticket counters per session", (driver) => {
  const { app, db, make } = useTestApp(driver);
  const body = { title: "Counted per session", description: "Same creator, same status." };

  if (driver === "postgres") {
    test("a transaction held open does not hold back a ticket of the same creator, status and priority", async () => {
      const { key, organizationId, user } = await make.member({
        scopes: ["tickets:read", "tickets:write"],
      });
      const other = await db.openAnother();
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      const held = other.db.transaction(async (tx) => {
        await tx.insert(tickets).values({ organizationId, createdBy: user.id, ...body });
        wrote();
        await released;
      });
      await written;
      const created = await send(app, "/api/v1/tickets", { key, body });
      expect(created.status, "answered while the other transaction is open").toBe(201);
      expect((await getJson(app, "/api/v1/tickets", key)).body.pagination.total).toBe(1);
      release();
      await held;
      expect((await getJson(app, "/api/v1/tickets", key)).body.pagination.total).toBe(2);
    });
  }

  test("folding the sessions' counters keeps every total exact", async () => {
    const { key, organizationId, user } = await make.member({
      scopes: ["tickets:read", "tickets:write"],
    });
    for (let i = 0; i < 3; i++) await send(app, "/api/v1/tickets", { key, body });
    const main = db.database.db;
    await main
      .update(tickets)
      .set({ status: "closed" })
      .where(and(eq(tickets.organizationId, organizationId), eq(tickets.createdBy, user.id)));
    const mine = eq(ticketCounts.organizationId, organizationId);
    const sessions = await main.$count(ticketCounts, and(mine, ne(ticketCounts.slot, 0)));
    expect(sessions, "writes went to session counters").toBeGreaterThan(0);
    await app.services.changeRetention.run();
    expect(await main.$count(ticketCounts, and(mine, ne(ticketCounts.slot, 0)))).toBe(0);
    expect((await getJson(app, "/api/v1/tickets?status=closed", key)).body.pagination.total).toBe(
      3,
    );
    expect((await getJson(app, "/api/v1/tickets?status=open", key)).body.pagination.total).toBe(0);
  });
});
