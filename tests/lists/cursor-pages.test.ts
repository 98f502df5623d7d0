import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { equipmentUnits, groups } from "../../src/db/schema/index.ts";
import { describeEachDriver, graphql, send, useTestApp } from "../helpers/harness.ts";
import { getJson } from "../helpers/lists.ts";

/**
 * Cursor pages on every list (docs/api.md, cursor pages): following `Link: rel="next"` walks
 * the same rows as offset pages, in the same order, once each, with `pagination.offset` the
 * number of items before each page; `prev` and `first` lead back; the caller's filters and
 * limit are kept, on PUBLIC_BASE_URL.
 */
const BASE = "https://api.orgit.example";
const SCOPES = [
  "tickets:read",
  "tickets:write",
  "equipment:read",
  "equipment:write",
  "alerts:read",
  "users:read",
  "projects:read",
  "projects:write",
  "webhooks:read",
  "webhooks:write",
];

/** `rel` → URL of a Link header */
function links(response: Response): Record<string, string> {
  const header = response.headers.get("link") ?? "";
  const out: Record<string, string> = {};
  for (const part of header.split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="(\w+)"$/.exec(part.trim());
    if (match) out[match[2] as string] = match[1] as string;
  }
  return out;
}

const local = (url: string) => {
  expect(url.startsWith(`${BASE}/`), `${url} is on PUBLIC_BASE_URL`).toBe(true);
  return url.slice(BASE.length);
};

describeEachDriver("cursor pages and Link headers", (driver) => {
  const { app, db, make } = useTestApp(driver, {
    env: { PUBLIC_BASE_URL: `${BASE}/` },
  });
  let key: string;

  beforeAll(async () => {
    const member = await make.member({ scopes: SCOPES });
    key = member.key;
    const { organizationId } = member;
    await app.services.operator.addIngestSource({ organizationId, cidr: "198.51.100.0/24" });
    for (let n = 0; n < 5; n++) {
      const priority = n % 2 === 0 ? "high" : "low";
      const body = { title: `Cursor ticket ${n}`, description: "Walked by cursor.", priority };
      await send(app, "/api/v1/tickets", { key, body });
      await send(app, "/api/v1/alerts/ingest", {
        body: { source: "s", title: `Alert ${n}` },
        peer: "198.51.100.1",
      });
      await send(app, "/api/projects", { key, body: { name: `Project ${n}` } });
      await make.member({ organizationId, scopes: ["users:read"] });
    }
    await send(app, "/api/v1/equipments/bulk-create", {
      key,
      body: { items: [1, 2, 3, 4, 5].map((n) => ({ name: `Device ${n}`, type: "laptop" })) },
    });
    // rows written within one millisecond: the cursor still orders them by id
    const at = new Date();
    await db.database.db
      .insert(equipmentUnits)
      .values([1, 2, 3, 4, 5].map((n) => ({ organizationId, name: `Unit ${n}`, createdAt: at })));
    await db.database.db
      .insert(groups)
      .values([1, 2, 3, 4, 5].map((n) => ({ organizationId, name: `Group ${n}`, createdAt: at })));
  });

  /** every page by rel="next" from `path` */
  async function walk(path: string) {
    const pages: {
      body: { data: { id?: string }[]; pagination: Record<string, number> };
      links: Record<string, string>;
    }[] = [];
    let next: string | undefined = path;
    while (next) {
      const response = await send(app, next, { key });
      expect(response.status, next).toBe(200);
      const page = { body: await response.json(), links: links(response) };
      pages.push(page);
      next = page.links.next && local(page.links.next);
      expect(pages.length, "the walk ends").toBeLessThan(20);
    }
    return pages;
  }

  for (const [list, path, whole] of [
    ["tickets", "/api/v1/tickets?limit=2", "/api/v1/tickets?limit=200"],
    ["tickets filtered", "/api/v1/tickets?priority=high&limit=1", "/api/v1/tickets?priority=high"],
    ["alerts", "/api/v1/alerts?limit=2", "/api/v1/alerts?limit=200"],
    ["equipment", "/api/v1/equipments?limit=2", "/api/v1/equipments?limit=200"],
    ["units", "/api/v1/equipment-units?limit=2", "/api/v1/equipment-units?limit=200"],
    ["groups", "/api/v1/groups?limit=2", "/api/v1/groups?limit=200"],
    ["users", "/api/v1/users?limit=2", "/api/v1/users?limit=200"],
  ] as const) {
    test(`${list}: rel="next" walks the offset list once each, offset counting the items before`, async () => {
      const all = (await getJson(app, whole, key)).body;
      expect(all.data.length, "something to walk").toBeGreaterThan(2);
      const pages = await walk(path);
      const walked = pages.flatMap((page) => page.body.data);
      expect(walked, "same rows, same order").toEqual(all.data);
      let before = 0;
      for (const [i, page] of pages.entries()) {
        expect(page.body.pagination, `page ${i}`).toEqual({
          total: all.pagination.total,
          limit: page.body.pagination.limit as number,
          offset: before,
        });
        expect(Object.keys(page.body.pagination), "the list envelope of docs/api.md").toEqual([
          "total",
          "limit",
          "offset",
        ]);
        expect(local(page.links.first ?? ""), "first keeps the filters").toBe(path);
        if (i > 0) expect(page.links.prev, `page ${i} has prev`).toBeDefined();
        else expect(page.links.prev, "no prev on the first page").toBeUndefined();
        before += page.body.data.length;
      }
      expect(pages.at(-1)?.links.next, "no next on the last page").toBeUndefined();
    });
  }

  test('a ticket\'s comments: rel="next" walks them by cursor too (after was ignored)', async () => {
    const ticket = (await getJson(app, "/api/v1/tickets?limit=1", key)).body.data[0];
    const path = `/api/v1/tickets/${ticket.id}/comments`;
    for (let n = 0; n < 5; n++) {
      const added = await send(app, path, { key, body: { body: `Comment ${n}` } });
      expect(added.status).toBe(201);
    }
    const all = (await getJson(app, `${path}?limit=200`, key)).body;
    const pages = await walk(`${path}?limit=2`);
    expect(pages.map((page) => page.body.data.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((page) => page.body.data)).toEqual(all.data);
    expect(pages.map((page) => page.body.pagination.offset)).toEqual([0, 2, 4]);
    expect(pages.at(-1)?.links.next, "no next on the last page").toBeUndefined();
    const bad = await getJson(app, `${path}?after=nope`, key);
    expect(bad.status, "a cursor that is not one is refused, not ignored").toBe(400);
  });

  test("prev by offset leads back to the page before a cursor page", async () => {
    const pages = await walk("/api/v1/tickets?limit=2");
    const third = pages[2];
    expect(third?.body.pagination.offset).toBe(4);
    const back = await send(app, local(third?.links.prev ?? ""), { key });
    expect(await back.json()).toEqual(pages[1]?.body);
  });

  test('interface B: projects and webhooks follow rel="next" with page numbers kept', async () => {
    const all = (await getJson(app, "/api/projects?limit=100", key)).body;
    const pages = await walk("/api/projects?limit=2");
    expect(pages.flatMap((page) => page.body.data)).toEqual(all.data);
    expect(pages.map((page) => page.body.pagination.page)).toEqual([1, 2, 3]);
    expect(Object.keys(pages[1]?.body.pagination ?? {})).toEqual(["page", "limit", "total"]);
    expect(local(pages[1]?.links.prev ?? "")).toBe("/api/projects?limit=2");
    const webhooks = await send(app, "/api/webhooks", { key });
    expect(links(webhooks).first).toBe(`${BASE}/api/webhooks`);
  });

  test("a cursor whose row was deleted since still leads to the rows after it", async () => {
    const { key: own, organizationId } = await make.member({ scopes: ["equipment:read"] });
    const at = Date.now();
    await db.database.db.insert(equipmentUnits).values(
      [1, 2, 3, 4].map((n) => ({
        organizationId,
        name: `Gone ${n}`,
        createdAt: new Date(at - n * 1000),
      })),
    );
    const first = await send(app, "/api/v1/equipment-units?limit=2", { key: own });
    const page = await first.json();
    await db.database.db.delete(equipmentUnits).where(eq(equipmentUnits.id, page.data[1].id));
    const next = await getJson(app, local(links(first).next ?? ""), own);
    expect(next.body.data.map((u: { name: string }) => u.name)).toEqual(["Gone 3", "Gone 4"]);
    expect(next.body.pagination.offset).toBe(2);
  });

  test("after with offset (or page) → 400; a malformed cursor → 400 naming after", async () => {
    const first = await send(app, "/api/v1/tickets?limit=1", { key });
    const next = local(links(first).next ?? "");
    for (const path of [
      `${next}&offset=0`,
      "/api/v1/tickets?after=nope",
      "/api/v1/groups?after=",
    ]) {
      const { status, body } = await getJson(app, path, key);
      expect({ path, status, error: body.error }).toEqual({
        path,
        status: 400,
        error: "Validation failed",
      });
      expect(body.details.map((d: { path: string[] }) => d.path)).toEqual([["after"]]);
    }
    const cursor = new URL(`${BASE}${next}`).searchParams.get("after");
    const both = await getJson(app, `/api/projects?page=2&after=${cursor}`, key);
    expect(both.status).toBe(400);
  });

  test("GraphQL: pagination.nextCursor and after walk the same list", async () => {
    const query = `query($after: String) { tickets(limit: 2, after: $after) {
      data { id } pagination { offset nextCursor } } }`;
    const ids: string[] = [];
    let after: string | null = null;
    do {
      const { json } = await graphql(app, key, query, { after });
      ids.push(...json.data.tickets.data.map((t: { id: string }) => t.id));
      after = json.data.tickets.pagination.nextCursor;
    } while (after);
    const all = (await getJson(app, "/api/v1/tickets?limit=200", key)).body.data;
    expect(ids).toEqual(all.map((t: { id: string }) => t.id));
  });
});
