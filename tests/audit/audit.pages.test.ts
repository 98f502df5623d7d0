import { expect, test } from "bun:test";
import { DAY_MS, ensureDayPartitions } from "../../src/db/queries/audit-partitions.ts";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { type DriverName, describeEachDriver, useTestApp } from "../helpers/harness.ts";
import { auditor, readLog } from "./helpers.ts";

/**
 * A page is read newest first in steps (the last two days, the week, the rest: each plans only
 * its day partitions, docs/decisions.md §15); whatever the steps, pages of any filter follow
 * one another with every matching entry once, in order, across day boundaries.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver);

  test("pages of a rare filter value walk back across the steps with every entry once, newest first", async () => {
    const reader = await auditor(make);
    const now = app.services.now().getTime();
    // the rare address on 9 days, from a minute ago to 20 days back; another one in between
    const agesInDays = [0.001, 0.5, 1.2, 1.9, 3, 6.5, 8, 12, 20];
    const at = (days: number) => new Date(now - days * DAY_MS);
    const other = (days: number) => days + 0.01; // the other address, just before
    await ensureDayPartitions(
      app.services.database.db,
      agesInDays.flatMap((d) => [at(d).getTime(), at(other(d)).getTime()]),
    );
    const row = (days: number, ip: string, status: number) => ({
      at: at(days),
      organizationId: reader.organizationId,
      kind: "request",
      apiKeyId: reader.apiKey.id,
      userId: reader.user.id,
      method: "GET",
      route: "/api/v1/tickets",
      status,
      ip,
      requestId: `${ip}-${days}`,
    });
    await app.services.database.db
      .insert(auditLog)
      .values([
        ...agesInDays.map((d, i) => row(d, "192.0.2.9", i % 3 === 0 ? 503 : 200)),
        ...agesInDays.map((d) => row(other(d), "198.51.100.1", 200)),
      ]);
    const expected = agesInDays.map((d) => `192.0.2.9-${d}`);

    for (const limit of [1, 2, 4, 50]) {
      const seen: string[] = [];
      let after = "";
      for (let page = 0; page < 20; page++) {
        const query = `?ip=192.0.2.9&limit=${limit}${after ? `&after=${after}` : ""}`;
        const { response, json } = await readLog(app, reader.key, query);
        expect(response.status).toBe(200);
        seen.push(...json.data.map((e: { requestId: string }) => e.requestId));
        if (!json.nextCursor) break;
        after = json.nextCursor;
      }
      expect(seen, `pages of ${limit}`).toEqual(expected);
    }

    const { json: errors } = await readLog(app, reader.key, "?statusClass=5xx&limit=50");
    expect(errors.data.map((e: { requestId: string }) => e.requestId)).toEqual(
      expected.filter((_, i) => i % 3 === 0),
    );
    const from = at(13).toISOString();
    const to = at(1).toISOString();
    const { json: range } = await readLog(
      app,
      reader.key,
      `?ip=192.0.2.9&limit=3&from=${from}&to=${to}`,
    );
    expect(range.data.map((e: { requestId: string }) => e.requestId)).toEqual(
      expected
        .filter((_, i) => (agesInDays[i] as number) > 1 && (agesInDays[i] as number) < 13)
        .slice(0, 3),
    );
  });
}

describeEachDriver("audit trail: pages across days", suite);
