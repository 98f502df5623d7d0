import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorFromResponse } from "../src/errors.ts";
import { BadRequestError, GoneError, type Orgit, type ResponseMeta } from "../src/index.ts";
import {
  collect,
  RELAXED_LIMITS,
  rejection,
  START_TIMEOUT_MS,
  startService,
  type TestService,
} from "./helpers.ts";

/**
 * `changes.sync(types, since)` and `paginate()` against a real service process (docs/api.md:
 * the change feed, cursor pages): the feed page by page with the token to store, and lists
 * walked by their `Link: rel="next"` cursors.
 */
let service: TestService;
let demo: Orgit;
let client: Orgit;

beforeAll(async () => {
  service = await startService({ label: "client sync", env: RELAXED_LIMITS, demo: true });
  demo = service.client(service.demoKey);
  client = (await service.newOrg()).client();
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await service?.stop();
});

const ticket = (n: number) => ({ title: `Synced ticket ${n}`, description: "Followed by sync()." });

test("sync yields every change once with the token to store; from that token only what is new", async () => {
  const created = [];
  for (let n = 0; n < 5; n++) created.push(await client.tickets.create(ticket(n)));
  const pages = await collect(client.changes.sync(["tickets"], undefined, { limit: 2 }));
  expect(pages.map((page) => page.data.length)).toEqual([2, 2, 1]);
  expect(pages.flatMap((page) => page.data.map((change) => change.id))).toEqual(
    created.map((t) => t.id),
  );
  expect(pages.at(-1)?.hasMore).toBe(false);
  const stored = pages.at(-1)?.next as string;

  const later = await client.tickets.create(ticket(9));
  const again = await collect(client.changes.sync(["tickets"], stored));
  expect(again.flatMap((page) => page.data)).toEqual([
    {
      type: "tickets",
      id: later.id,
      op: "upsert",
      at: expect.any(String),
      record: await client.tickets.get(later.id),
    },
  ]);
});

test("a malformed token is a BadRequestError; an expired one (410) a GoneError", async () => {
  const error = await rejection(collect(client.changes.sync(["tickets"], "not-a-token")));
  expect(error).toBeInstanceOf(BadRequestError);
  expect((error as BadRequestError).status).toBe(400);
  const meta = { status: 410, headers: new Headers(), requestId: null } as unknown as ResponseMeta;
  const expired = errorFromResponse(meta, { error: "Sync token expired" });
  expect(expired).toBeInstanceOf(GoneError);
  expect(expired.message).toBe("410 Sync token expired");
});

test("paginate() follows the cursors of every list and yields what one big page holds", async () => {
  for (const list of [
    demo.equipment,
    demo.equipmentUnits,
    demo.groups,
    demo.alerts,
    demo.tickets,
  ]) {
    const page = await list.list({ limit: 200 });
    expect(page.data.length, "the demo fills the list").toBeGreaterThan(0);
    const all = await collect<{ id: string }>(list.paginate({ limit: 2 }));
    expect(all.map((item) => item.id)).toEqual(page.data.map((item) => item.id));
  }
  for (let n = 0; n < 3; n++) await client.projects.create({ name: `Paged project ${n}` });
  const projects = await collect(client.projects.paginate({ limit: 2 }));
  expect(projects.map((p) => p.id)).toEqual(
    (await client.projects.list({ limit: 100 })).data.map((p) => p.id),
  );
});
