import { expect, test } from "bun:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { tickets } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/**
 * The tickets page's total comes from counters kept by triggers (not from counting rows): it
 * must equal a real count after inserts through the API, multi-row inserts, updates and
 * deletes straight in the table, for every filter and for an owner-only key.
 */
function suite(driver: DriverName) {
  const { app, db, make } = useTestApp(driver);

  test("totals equal a real count after every kind of write", async () => {
    const admin = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    const { organizationId } = admin;
    await make.role(organizationId, "reporter", "TECHNICIAN", ["tickets.manage"]);
    const reporter = await make.member({
      organizationId,
      role: "reporter",
      scopes: ["tickets:read", "tickets:write"],
    });
    const other = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    const body = { title: "Through the API", description: "Counted by the insert trigger." };
    for (const who of [admin, admin, reporter, other]) {
      expect((await send(app, "/api/v1/tickets", { key: who.key, body })).status).toBe(201);
    }
    const d = db.database.db;
    const statuses = ["open", "in_progress", "resolved", "closed"] as const;
    const priorities = ["low", "medium", "high", "critical"] as const;
    await d.insert(tickets).values(
      Array.from({ length: 40 }, (_, i) => ({
        organizationId,
        title: `Bulk ${i}`,
        description: "Inserted in one statement.",
        status: statuses[i % 4],
        priority: priorities[Math.floor(i / 4) % 4],
        createdBy: i % 3 === 0 ? reporter.user.id : admin.user.id,
      })),
    );
    await d
      .update(tickets)
      .set({ status: "closed", priority: "critical" })
      .where(and(eq(tickets.organizationId, organizationId), eq(tickets.status, "open")));
    const some = await d
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.organizationId, organizationId), eq(tickets.priority, "low")));
    await d.delete(tickets).where(
      inArray(
        tickets.id,
        some.slice(0, 3).map((r) => r.id),
      ),
    );

    const real = (where: ReturnType<typeof sql>) => d.$count(tickets, where);
    const org = sql`organization_id = ${organizationId}`;
    const cases: [string, string, ReturnType<typeof sql>][] = [
      [admin.key, "", org],
      [admin.key, "?status=closed", sql`${org} and status = 'closed'`],
      [admin.key, "?status=open", sql`${org} and status = 'open'`],
      [admin.key, "?priority=low", sql`${org} and priority = 'low'`],
      [
        admin.key,
        "?status=closed&priority=critical",
        sql`${org} and status = 'closed' and priority = 'critical'`,
      ],
      [reporter.key, "", sql`${org} and created_by = ${reporter.user.id}`],
      [
        reporter.key,
        "?status=resolved",
        sql`${org} and created_by = ${reporter.user.id} and status = 'resolved'`,
      ],
      [other.key, "", sql`organization_id = ${other.organizationId}`],
    ];
    for (const [key, query, where] of cases) {
      const { status, body: page } = await getJson(app, `/api/v1/tickets${query}`, key);
      expect(status).toBe(200);
      expect({ query, total: page.pagination.total }).toEqual({ query, total: await real(where) });
    }
    // past the end: no rows, the total still exact
    const past = await getJson(app, "/api/v1/tickets?offset=1000", admin.key);
    expect(past.body).toMatchObject({
      data: [],
      pagination: { total: await real(org), offset: 1000 },
    });
  });
}

describeEachDriver("ticket totals (counters)", suite);
