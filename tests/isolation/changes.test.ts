import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { changes, tickets } from "../../src/db/schema/index.ts";
import { manualClock } from "../helpers/clock.ts";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { expectUntouched, twoOrganizations } from "./helpers.ts";

/**
 * The change feed (docs/api.md): B follows every type with every scope and an admin role, and
 * never sees one of A's changes, through REST or GraphQL, from the beginning or from a token;
 * reading writes nothing of A.
 */
function suite(driver: DriverName) {
  const clock = manualClock(Date.now());
  const { app, make } = useTestApp(driver, { now: clock.now });

  test("change feed: B's feed holds only B's tickets, alerts and equipment, and reading it leaves A untouched", async () => {
    const { a, b } = await twoOrganizations(make);
    await app.services.operator.addIngestSource({
      organizationId: a.organizationId,
      cidr: "198.19.1.0/24",
    });
    await app.services.operator.addIngestSource({
      organizationId: b.organizationId,
      cidr: "198.19.2.0/24",
    });
    const write = async (key: string, peer: string, name: string) => {
      const ticket = await send(app, "/api/v1/tickets", {
        key,
        body: { title: `${name} ticket`, description: "Isolation of the change feed." },
      });
      const alert = await send(app, "/api/v1/alerts/ingest", {
        body: { source: "s", externalId: "same-id", title: `${name} alert` },
        peer,
      });
      const bulk = await send(app, "/api/v1/equipments/bulk-create", {
        key,
        body: { items: [{ name: `${name} laptop`, type: "laptop" }] },
      });
      return [
        (await ticket.json()).id,
        (await alert.json()).ids[0],
        (await bulk.json()).items[0].id,
      ] as string[];
    };
    const aIds = await write(a.key, "198.19.1.9", "A");
    const bIds = await write(b.key, "198.19.2.9", "B");
    expect(aIds.every(Boolean) && bIds.every(Boolean), "both wrote their records").toBe(true);

    await expectUntouched(app, a.organizationId, async () => {
      const rest = await send(app, "/api/v1/changes?limit=1000", { key: b.key });
      const body = await rest.json();
      expect(body.data.map((c: { id: string }) => c.id)).toEqual(bIds);
      // a token from B's feed read again: still only B's
      const again = await send(app, `/api/v1/changes?since=${body.next}`, { key: b.key });
      expect((await again.json()).data).toEqual([]);
      const { json } = await graphql(app, b.key, "{ changes(limit: 100) { data { id } } }");
      expect(json.data.changes.data.map((c: { id: string }) => c.id)).toEqual(bIds);
    });
    const own = await (await send(app, "/api/v1/changes", { key: a.key })).json();
    expect(
      own.data.map((c: { id: string }) => c.id),
      "A's own feed is whole",
    ).toEqual(aIds);
  });

  test("retention and counter folding: B's deleted ticket leaves no change, A's live ticket keeps its change and its total", async () => {
    const { a, b } = await twoOrganizations(make);
    const body = { title: "Retention isolation", description: "Kept, or deleted and removed." };
    const aTicket = await (await send(app, "/api/v1/tickets", { key: a.key, body })).json();
    const bTicket = await (await send(app, "/api/v1/tickets", { key: b.key, body })).json();
    const main = app.services.database.db;
    await main.delete(tickets).where(eq(tickets.id, bTicket.id));
    const totalOf = async (key: string) =>
      (await (await send(app, "/api/v1/tickets", { key })).json()).pagination.total;
    clock.advance(31 * 86_400_000);
    await expectUntouched(app, a.organizationId, async () => {
      expect((await app.services.changeRetention.run())?.removed, "B's two changes").toBe(2);
    });
    const bRows = await main
      .select()
      .from(changes)
      .where(eq(changes.organizationId, b.organizationId));
    expect(bRows, "nothing left of B's deleted ticket").toEqual([]);
    expect(await totalOf(a.key)).toBe(1);
    expect(await totalOf(b.key)).toBe(0);
    expect(aTicket.id).toBeDefined();
  });
}

describeEachDriver("tenant isolation: change feed", suite);
