import { beforeAll, expect, test } from "bun:test";
import { manualClock } from "../helpers/clock.ts";
import { describeEachDriver, graphql, send, useTestApp } from "../helpers/harness.ts";

/**
 * Cursor pages on a ticket's comments (docs/api.md, cursor pages): `Link: rel="next"` walks
 * every comment once, newest first, in the same order as offset pages, even when several
 * comments share one creation time; a bad cursor is a 400 naming `after`.
 */
const BASE = "https://api.orgit.example";
const SCOPES = ["tickets:read", "tickets:write"];
const TICKET = { title: "Printer jams", description: "The printer on floor 2 jams on every page." };

/** `rel` → URL of a Link header */
function links(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (response.headers.get("link") ?? "").split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="(\w+)"$/.exec(part.trim());
    if (match) out[match[2] as string] = match[1] as string;
  }
  return out;
}

const local = (url: string) => {
  expect(url.startsWith(`${BASE}/`), `${url} is on PUBLIC_BASE_URL`).toBe(true);
  return url.slice(BASE.length);
};

describeEachDriver("ticket comments: cursor pages", (driver) => {
  const clock = manualClock();
  const { app, make } = useTestApp(driver, { now: clock.now, env: { PUBLIC_BASE_URL: BASE } });
  let key: string;
  let ticketId: string;
  const path = () => `/api/v1/tickets/${ticketId}/comments`;

  /** A ticket with `count` comments, pairs sharing one creation time (the id breaks the ties). */
  async function ticketWithComments(count: number): Promise<string> {
    const created = await send(app, "/api/v1/tickets", { key, body: TICKET });
    const id = ((await created.json()) as { id: string }).id;
    for (let n = 0; n < count; n++) {
      if (n % 2 === 0) clock.advance(1000);
      const answer = await send(app, `/api/v1/tickets/${id}/comments`, {
        key,
        body: { body: `Comment ${n}` },
      });
      expect(answer.status).toBe(201);
    }
    return id;
  }

  beforeAll(async () => {
    ({ key } = await make.member({ scopes: SCOPES }));
    // the tests below only read this ticket's 7 comments; one that adds a comment has its own
    ticketId = await ticketWithComments(7);
  });

  const bodies = async (response: Response) =>
    ((await response.json()) as { data: { body: string }[] }).data.map((c) => c.body);

  test('rel="next" walks every comment once, in the order of the offset pages', async () => {
    const all = await send(app, `${path()}?limit=200`, { key });
    const expected = await bodies(all);
    expect(expected).toHaveLength(7);
    expect(links(all).next, "one page holds them all: no next").toBeUndefined();

    const walked: string[] = [];
    let next: string | undefined = `${path()}?limit=3`;
    const offsets: number[] = [];
    while (next) {
      const response = await send(app, next, { key });
      expect(response.status, next).toBe(200);
      const page = (await response.clone().json()) as { pagination: Record<string, number> };
      expect(Object.keys(page.pagination), "no cursor in the envelope").toEqual([
        "total",
        "limit",
        "offset",
      ]);
      offsets.push(page.pagination.offset as number);
      walked.push(...(await bodies(response)));
      expect(links(response).first).toBe(`${BASE}${path()}?limit=3`);
      const rel = links(response).next;
      next = rel ? local(rel) : undefined;
    }
    expect(walked, "same comments, same order, once each").toEqual(expected);
    expect(offsets).toEqual([0, 3, 6]);
    // the order is newest first, ties by id: the same walk twice gives the same pages
    const second = await send(app, `${path()}?limit=3`, { key });
    const rel = links(second).next;
    expect(rel, "a second page exists").toBeDefined();
    const again = await send(app, local(rel as string), { key });
    expect(await bodies(again)).toEqual(expected.slice(3, 6));
  });

  test("a comment added after the first page does not shift the cursor's next page", async () => {
    const own = `/api/v1/tickets/${await ticketWithComments(5)}/comments`;
    const first = await send(app, `${own}?limit=2`, { key });
    const before = await bodies(first);
    const next = local(links(first).next as string);
    const expected = await bodies(await send(app, next, { key }));
    clock.advance(1000);
    await send(app, own, { key, body: { body: "A late comment" } });
    const after = await bodies(await send(app, next, { key }));
    expect(after, "the page after the cursor row is unchanged").toEqual(expected);
    expect(after).not.toContain(before[0]);
  });

  test("a malformed cursor, or one with offset, is a 400 naming after", async () => {
    for (const query of ["after=nonsense", "after=bDEuMy4x", "after=&limit=2"]) {
      const response = await send(app, `${path()}?${query}`, { key });
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: string; details: { path: string[] }[] };
      expect(body.error, query).toBe("Validation failed");
      expect(body.details[0]?.path, query).toEqual(["after"]);
    }
    const first = await send(app, `${path()}?limit=2`, { key });
    const cursor = new URL(links(first).next as string).searchParams.get("after") as string;
    const response = await send(app, `${path()}?after=${cursor}&offset=2`, { key });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { details: { path: string[] }[] };
    expect(body.details.map((d) => d.path.join("."))).toEqual(["after"]);
  });

  test("GraphQL: ticketComments gives nextCursor, and after continues from it", async () => {
    const query = `query($id: ID!, $after: String) {
      ticketComments(ticketId: $id, limit: 4, after: $after) {
        data { body } pagination { offset nextCursor }
      }
    }`;
    const first = await graphql(app, key, query, { id: ticketId });
    const page = first.json.data.ticketComments;
    expect(page.pagination.offset).toBe(0);
    expect(typeof page.pagination.nextCursor).toBe("string");
    const second = await graphql(app, key, query, {
      id: ticketId,
      after: page.pagination.nextCursor,
    });
    const rest = second.json.data.ticketComments;
    expect(rest.pagination).toEqual({ offset: 4, nextCursor: null });
    const all = await graphql(
      app,
      key,
      `query($id: ID!) { ticketComments(ticketId: $id, limit: 200) { data { body } } }`,
      { id: ticketId },
    );
    expect([...page.data, ...rest.data]).toEqual(all.json.data.ticketComments.data);
    const bad = await graphql(app, key, query, { id: ticketId, after: "nonsense" });
    expect(bad.json.errors?.[0]?.extensions?.details?.[0]?.path).toEqual(["after"]);
    const withPage = await graphql(
      app,
      key,
      `query($id: ID!, $after: String) { ticketComments(ticketId: $id, page: 2, after: $after) { data { body } } }`,
      { id: ticketId, after: page.pagination.nextCursor },
    );
    expect(withPage.json.errors?.[0]?.extensions?.details).toEqual([
      { path: ["after"], message: "Give either after or page, not both" },
    ]);
  });
});
