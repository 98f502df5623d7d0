import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipment, tickets } from "../../src/db/schema/index.ts";
import { decodeToken } from "../../src/modules/changes/token.ts";
import { describeEachDriver, graphql, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";
import { eventually } from "../helpers/wait.ts";

/** GET /api/v1/changes and GraphQL `changes` (docs/api.md, the change feed). */

const PEER = "198.18.7.7";
const ticket = (n: number) => ({
  title: `Feed ticket ${n}`,
  description: "Followed by a sync client.",
});

interface ChangeJson {
  type: string;
  id: string;
  op: string;
  at: string;
  record: Record<string, unknown> | null;
}

describeEachDriver("change feed", (driver) => {
  const { app, db, make } = useTestApp(driver);
  let key: string;
  let organizationId: string;

  beforeAll(async () => {
    const member = await make.member({
      scopes: ["tickets:read", "tickets:write", "alerts:read", "equipment:read", "equipment:write"],
    });
    key = member.key;
    organizationId = member.organizationId;
    await app.services.operator.addIngestSource({ organizationId, cidr: "198.18.0.0/16" });
  });

  /** follows `next` until hasMore is false, `limit` at a time */
  async function drainFrom(since: string | undefined, limit = 2, types?: string) {
    const seen: ChangeJson[] = [];
    let token = since;
    for (let pages = 0; pages < 100; pages++) {
      const query = new URLSearchParams({ limit: `${limit}` });
      if (token) query.set("since", token);
      if (types) query.set("types", types);
      const { status, body } = await getJson(app, `/api/v1/changes?${query}`, key);
      expect(status, JSON.stringify(body)).toBe(200);
      seen.push(...body.data);
      token = body.next;
      if (!body.hasMore) return { seen, next: token as string };
    }
    throw new Error("the feed never ended");
  }

  /**
   * drainFrom, again until `count` changes have come (or its deadline): the feed answers only
   * changes below the oldest transaction still running, and counts a running one whose session
   * it cannot see as this database's (docs/decisions.md §12), so under load a change may come a
   * moment late, never early, twice or out of order. Checks of "nothing new" stay immediate.
   */
  async function drainAtLeast(count: number, since: string | undefined, limit = 2, types?: string) {
    let drained = await drainFrom(since, limit, types);
    await eventually(async () => {
      drained = await drainFrom(since, limit, types);
      return drained.seen.length >= count;
    }, `${count} changes in the feed`);
    return drained;
  }

  test("creates of each type arrive once, in order, with the record as its GET answers it", async () => {
    const start = await drainFrom(undefined);
    const created = await (await send(app, "/api/v1/tickets", { key, body: ticket(1) })).json();
    const ingested = await (
      await send(app, "/api/v1/alerts/ingest", {
        body: { source: "prometheus", title: "Disk full", severity: "critical" },
        peer: PEER,
      })
    ).json();
    const bulk = await (
      await send(app, "/api/v1/equipments/bulk-create", {
        key,
        body: { items: [{ name: "Laptop 7", type: "laptop" }] },
      })
    ).json();
    const { seen } = await drainAtLeast(3, start.next);
    expect(seen.map((c) => [c.type, c.op, c.id])).toEqual([
      ["tickets", "upsert", created.id],
      ["alerts", "upsert", ingested.ids[0]],
      ["equipment", "upsert", bulk.items[0].id],
    ]);
    const got = async (path: string) => (await getJson(app, path, key)).body;
    expect(seen[0]?.record, "a ticket as GET /tickets/{id} answers it").toEqual(
      await got(`/api/v1/tickets/${created.id}`),
    );
    expect(seen[1]?.record, "an alert as GET /alerts/{id} answers it").toEqual(
      await got(`/api/v1/alerts/${ingested.ids[0]}`),
    );
    expect(seen[2]?.record, "equipment as GET /equipments/{id} answers it").toEqual(
      await got(`/api/v1/equipments/${bulk.items[0].id}`),
    );
    // the same bytes, key order included: a mirror may store the JSON as it comes
    for (const [change, path] of [
      [seen[0], `/api/v1/tickets/${created.id}`],
      [seen[1], `/api/v1/alerts/${ingested.ids[0]}`],
      [seen[2], `/api/v1/equipments/${bulk.items[0].id}`],
    ] as const) {
      expect(JSON.stringify(change?.record), path).toBe(JSON.stringify(await got(path)));
    }
    expect(Date.parse(seen[0]?.at ?? "")).not.toBeNaN();
  });

  test("a stored token answers only what changed since, and nothing twice", async () => {
    const { next } = await drainFrom(undefined);
    expect((await drainFrom(next)).seen, "nothing new yet").toEqual([]);
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) {
      ids.push((await (await send(app, "/api/v1/tickets", { key, body: ticket(n) })).json()).id);
    }
    const after = await drainAtLeast(ids.length, next, 2);
    expect(after.seen.map((c) => c.id)).toEqual(ids);
    expect((await drainFrom(after.next)).seen).toEqual([]);
  });

  test("an update is an upsert with the record as it is now; a delete has a null record", async () => {
    const { next } = await drainFrom(undefined);
    const created = await (await send(app, "/api/v1/tickets", { key, body: ticket(9) })).json();
    const main = db.database.db;
    await main.update(tickets).set({ status: "closed" }).where(eq(tickets.id, created.id));
    const gone = await (
      await send(app, "/api/v1/equipments/bulk-create", {
        key,
        body: { items: [{ name: "Old printer", type: "printer" }] },
      })
    ).json();
    await main.delete(equipment).where(eq(equipment.id, gone.items[0].id));
    const { seen } = await drainAtLeast(4, next, 10);
    expect(seen.map((c) => [c.type, c.op, c.id])).toEqual([
      ["tickets", "upsert", created.id],
      ["tickets", "upsert", created.id],
      // written, then deleted before the answer: its upsert is answered as a delete too
      ["equipment", "delete", gone.items[0].id],
      ["equipment", "delete", gone.items[0].id],
    ]);
    expect(seen[1]?.record).toMatchObject({ id: created.id, status: "closed" });
    expect(seen[1]?.record, "the update as GET answers it now").toEqual(
      (await getJson(app, `/api/v1/tickets/${created.id}`, key)).body,
    );
    expect(seen[3]?.record).toBeNull();
  });

  test("a retirement is a tombstone: op delete with a null record", async () => {
    const { next } = await drainFrom(undefined);
    const bulk = await (
      await send(app, "/api/v1/equipments/bulk-create", {
        key,
        body: { items: [{ name: "Retiring desktop", type: "workstation" }] },
      })
    ).json();
    const id = bulk.items[0].id;
    await db.database.db.update(equipment).set({ status: "retired" }).where(eq(equipment.id, id));
    const { seen } = await drainAtLeast(2, next, 10, "equipment");
    expect(seen.map((c) => [c.id, c.op, c.record])).toEqual([
      [id, "upsert", expect.objectContaining({ id, status: "retired" })],
      [id, "delete", null],
    ]);
  });

  test("types narrows the feed; limit bounds each page", async () => {
    const { next } = await drainFrom(undefined);
    await send(app, "/api/v1/tickets", { key, body: ticket(20) });
    await send(app, "/api/v1/alerts/ingest", {
      body: { source: "s", title: "Only alert" },
      peer: PEER,
    });
    const alertsOnly = await drainAtLeast(1, next, 100, "alerts");
    expect(alertsOnly.seen.map((c) => c.type)).toEqual(["alerts"]);
    const { body } = await getJson(app, `/api/v1/changes?limit=1&since=${next}`, key);
    expect(body.data).toHaveLength(1);
    expect(body.hasMore).toBe(true);
    const defaults = await getJson(app, "/api/v1/changes", key);
    expect(defaults.body.data.length, "default page size 100").toBeLessThanOrEqual(100);
  });

  test("GraphQL changes answers the same feed with typed records", async () => {
    const before = await drainFrom(undefined);
    const created = await (await send(app, "/api/v1/tickets", { key, body: ticket(30) })).json();
    await drainAtLeast(1, before.next);
    const { next } = await drainFrom(undefined);
    const { json } = await graphql(
      app,
      key,
      `query($since: String) { changes(types: [tickets], since: $since, limit: 100) {
        data { type id op record { __typename ... on Ticket { id title } } } next hasMore } }`,
      { since: undefined },
    );
    expect(json.errors, JSON.stringify(json.errors)).toBeUndefined();
    const last = json.data.changes.data.at(-1);
    expect(last).toEqual({
      type: "tickets",
      id: created.id,
      op: "upsert",
      record: { __typename: "Ticket", id: created.id, title: "Feed ticket 30" },
    });
    // the page ended, so its token moves on to the oldest transaction still running, as REST's
    // does; but that xid is the cluster's, and a suite beside this one (npm test runs two files
    // at a time, each in a database of its own) may have moved it on between the two calls. So:
    // REST's position or later, and the change written after both is the next one from it
    const viaRest = decodeToken(next);
    const viaGraphql = decodeToken(json.data.changes.next);
    expect(
      BigInt(viaGraphql.xid) >= BigInt(viaRest.xid),
      `GraphQL's token at ${viaGraphql.xid}, REST's at ${viaRest.xid}`,
    ).toBe(true);
    const later = await (await send(app, "/api/v1/tickets", { key, body: ticket(31) })).json();
    const after = await drainAtLeast(1, json.data.changes.next, 10, "tickets");
    expect(after.seen.map((c) => [c.op, c.id])).toEqual([["upsert", later.id]]);
  });
});
