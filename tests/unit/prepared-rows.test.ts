import { beforeAll, expect, test } from "bun:test";
import { desc, eq, sql } from "drizzle-orm";
import { preparedRows } from "../../src/db/prepared-rows.ts";
import { tickets } from "../../src/db/schema/index.ts";
import { type DriverName, describeEachDriver, send, useTestApp } from "../helpers/harness.ts";

/**
 * `preparedRows` maps a prepared select's rows by a mapper made for its columns: the answer
 * must be exactly Drizzle's own, on both drivers, for every kind of column the pages read
 * (uuid, text, enums, timestamps, integers, nulls, `sql` values with and without `mapWith`).
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);
  let organizationId: string;

  beforeAll(async () => {
    const member = await make.member({ scopes: ["tickets:read", "tickets:write"] });
    organizationId = member.organizationId;
    for (const [title, priority] of [
      ["Printer jams", "high"],
      ["VPN drops", "low"],
      ["Laptop fan", "critical"],
    ] as const) {
      const response = await send(app, "/api/v1/tickets", {
        key: member.key,
        body: { title, description: `${title}, since Monday.`, priority },
      });
      expect(response.status).toBe(201);
    }
  });

  test("the rows are Drizzle's own, value for value, nulls and Dates included", async () => {
    const { db } = app.services.database;
    const fields = {
      id: tickets.id,
      title: tickets.title,
      description: tickets.description,
      status: tickets.status,
      priority: tickets.priority,
      equipmentId: tickets.equipmentId,
      assigneeId: tickets.assigneeId,
      createdAt: tickets.createdAt,
      updatedAt: tickets.updatedAt,
      version: tickets.version,
      total:
        sql<number>`(select count(*) from tickets t where t.organization_id = ${tickets.organizationId})`.mapWith(
          Number,
        ),
      missing: sql<number | null>`null::integer`.mapWith(Number),
      // an `sql` value without mapWith: its text as it came
      label: sql<string>`'#' || ${tickets.title}`,
      none: sql<string | null>`null::text`,
    };
    const select = () =>
      db
        .select(fields)
        .from(tickets)
        .where(eq(tickets.organizationId, sql.placeholder("organizationId")))
        .orderBy(desc(tickets.createdAt), desc(tickets.id));
    const drizzles = await select()
      .prepare(`prepared_rows_drizzle_${driver}`)
      .execute({ organizationId });
    const ours = await preparedRows<(typeof drizzles)[number]>(
      db,
      select(),
      fields,
      `prepared_rows_ours_${driver}`,
    ).execute({ organizationId });
    expect(drizzles).toHaveLength(3);
    expect(ours).toEqual(drizzles);
    // the same keys in the same order, and the same types (toEqual alone would not tell)
    expect(ours.map((row) => Object.keys(row))).toEqual(drizzles.map((row) => Object.keys(row)));
    const [first] = ours;
    expect(first?.createdAt).toBeInstanceOf(Date);
    expect(first?.total).toBe(3);
    expect(first?.version).toBeTypeOf("number");
    expect(first?.equipmentId).toBeNull();
    expect(first?.missing).toBeNull();
    expect(first?.label).toBe(`#${first?.title}`);
    expect(first?.none).toBeNull();
  });

  test("the tickets page reads through it: the REST list is unchanged", async () => {
    const { key } = await make.member({ organizationId, scopes: ["tickets:read"] });
    const page = await (await send(app, "/api/v1/tickets?limit=2", { key })).json();
    expect(page.pagination).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(page.data.map((t: { title: string }) => t.title)).toEqual(["Laptop fan", "VPN drops"]);
    expect(page.data[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
}

describeEachDriver("preparedRows", suite);
