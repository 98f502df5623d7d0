import { expect, test } from "bun:test";
import { BoundedBatch, PeriodicFlush } from "../../src/db/batched-writes.ts";
import { RequestFolds } from "../../src/db/queries/audit-fold.ts";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { createLogger } from "../../src/logger.ts";
import { manualClock } from "../helpers/clock.ts";
import { buildTestApp, factories, freshDatabase, send } from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";
import { requestTuple, sendRecorded } from "./helpers.ts";

const logger = createLogger("error");
/** a batch's counters, in the order of `BatchStats` */
const counts = (received: number, pending: number, written: number, dropped: number) => ({
  received,
  pending,
  written,
  dropped,
});

test("while the database is away the buffer stays bounded, drops and counts, then catches up", async () => {
  let up = false;
  const written: number[][] = [];
  const batch = new BoundedBatch<number>(
    async (rows) => {
      if (!up) throw new Error("connection refused");
      written.push(rows);
    },
    logger,
    { name: "rows", capacity: 3, batchSize: 2 },
  );
  for (let i = 1; i <= 5; i++) batch.add(i);
  expect(batch.stats).toEqual(counts(5, 3, 0, 2));
  await batch.flush();
  expect(batch.stats, "a failed batch goes back; nothing grows").toEqual(counts(5, 3, 0, 2));
  up = true;
  await batch.flush();
  expect(written, "in order, in batches of at most 2").toEqual([[1, 2], [3]]);
  expect(batch.stats).toEqual(counts(5, 0, 3, 2));
});

test("a flush writes the rows pending when it starts; rows added meanwhile wait for the next", async () => {
  const written: number[][] = [];
  let release: () => void = () => {};
  const batch: BoundedBatch<number> = new BoundedBatch<number>(
    async (rows) => {
      written.push(rows);
      // requests answered while the statement is in flight
      if (written.length === 1) {
        batch.add(3);
        batch.add(4);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
    },
    logger,
    { name: "rows", capacity: 100, batchSize: 10 },
  );
  batch.add(1);
  batch.add(2);
  const flushing = batch.flush();
  release();
  await flushing;
  expect(written, "one statement: under load a flush never chases the rows behind it").toEqual([
    [1, 2],
  ]);
  expect(batch.stats).toEqual(counts(4, 2, 2, 0));
  batch.add(5);
  await batch.drain();
  expect(written, "drain (shutdown) writes everything, in order").toEqual([
    [1, 2],
    [3, 4, 5],
  ]);
  expect(batch.stats).toEqual(counts(5, 0, 5, 0));
});

test("drain stops at a failure instead of retrying without end", async () => {
  let calls = 0;
  const batch = new BoundedBatch<number>(
    async () => {
      calls++;
      throw new Error("connection refused");
    },
    logger,
    { name: "rows", capacity: 10, batchSize: 2 },
  );
  for (let i = 1; i <= 3; i++) batch.add(i);
  await batch.drain();
  expect(calls).toBe(1);
  expect(batch.stats).toEqual(counts(3, 3, 0, 0));
});

test("entries holding several rows: capacity, pending and written count rows; a flush closes what it takes", async () => {
  interface Entry {
    rows: number;
  }
  const written: number[][] = [];
  let closed = 0;
  let up = false;
  const batch = new BoundedBatch<Entry>(
    async (entries) => {
      if (!up) throw new Error("connection refused");
      written.push(entries.map((e) => e.rows));
    },
    logger,
    { name: "rows", capacity: 5, batchSize: 10, weight: (e) => e.rows, taken: () => closed++ },
  );
  const open: Entry = { rows: 0 };
  for (let i = 0; i < 4; i++) {
    expect(batch.admit(), `row ${i + 1} fits`).toBe(true);
    if (open.rows++ === 0) batch.push(open); // the first row starts the entry, the rest join it
  }
  batch.add({ rows: 1 });
  expect(batch.admit(), "a sixth row is over the capacity of 5").toBe(false);
  expect(batch.stats).toEqual(counts(6, 5, 0, 1));
  await batch.flush();
  expect(closed, "the flush closed the entries it took").toBe(1);
  expect(batch.stats, "a failed write keeps every row; nothing is dropped").toEqual(
    counts(6, 5, 0, 1),
  );
  up = true;
  await batch.flush();
  expect(written).toEqual([[4, 1]]);
  expect(batch.stats).toEqual(counts(6, 0, 5, 1));
});

test("requests fold into their row as they arrive; a row taken by a flush never grows", () => {
  const at = 1_800_000_000_000;
  const request = (ms: number, status: number, id: string) => requestTuple(ms, { status, id });
  const folds = new RequestFolds();
  const first = folds.add(request(at, 200, "a"));
  expect(first, "the first request starts a row").toBeDefined();
  expect(folds.add(request(at + 5, 200, "b")), "an alike request joins it").toBeUndefined();
  const refused = folds.add(request(at + 6, 401, "c"));
  expect(refused, "another status starts a row of its own").toBeDefined();
  expect(folds.add(request(at + 7, 200, "d")), "the first row is still found by its key").toBe(
    undefined,
  );
  folds.close();
  const later = folds.add(request(at + 8, 200, "e"));
  expect(later, "after a flush took the rows, an alike request starts a new one").toBeDefined();
  expect(first?.idTexts).toEqual(["a", "b", "d"]);
  expect([...(first?.offsets.subarray(0, first.size) ?? [])]).toEqual([0, 5, 7]);
  expect(first?.latest).toBe(7);
  expect(refused?.idTexts).toEqual(["c"]);
  expect(later?.idTexts).toEqual(["e"]);
});

test("the recorder's capacity counts requests, folded or not; the dropped ones are counted", async () => {
  const fresh = await freshDatabase("pglite");
  const clock = manualClock();
  const app = await buildTestApp(fresh.database, {
    now: clock.now,
    audit: { flushMs: 0, capacity: 3 },
  });
  try {
    const member = await factories(app).member(); // api_key.created: the first row held
    for (let i = 0; i < 4; i++) {
      const response = await send(app, "/api/v1/whoami", { key: member.key });
      expect(response.status, "recording never refuses a request").toBe(200);
    }
    const stats = app.services.auditTrail.stats;
    await eventually(() => stats.received === 5, "the four requests to reach the trail");
    expect(stats).toEqual(counts(5, 3, 0, 2));
    await app.services.auditTrail.flush();
    expect(stats).toEqual(counts(5, 0, 3, 2));
    const rows = await fresh.database.db.select().from(auditLog);
    expect(
      rows.map((r) => [r.kind, r.requests]).sort(),
      "the event, and the two requests that fit in one row",
    ).toEqual([
      ["api_key.created", 1],
      ["request", 2],
    ]);
  } finally {
    await app.stop();
    await fresh.drop();
  }
});

test("overlapping flushes share one run, and stop writes what is left", async () => {
  let runs = 0;
  let release: () => void = () => {};
  const flush = new PeriodicFlush(async () => {
    runs++;
    await new Promise<void>((resolve) => {
      release = resolve;
    });
  }, 0);
  const first = flush.run();
  const second = flush.run();
  expect(first).toBe(second);
  release();
  await first;
  const stopping = flush.stop();
  await eventually(() => runs === 2, "the final run at stop");
  release();
  await stopping;
  expect(runs, "one shared run, one final run at stop").toBe(2);
});

test("requests answered before a shutdown are written by stop()", async () => {
  const fresh = await freshDatabase("pglite");
  const app = await buildTestApp(fresh.database);
  try {
    const member = await factories(app).member();
    await sendRecorded(app, "/api/v1/whoami", { key: member.key });
    expect(app.services.auditTrail.stats.pending).toBe(2);
    await app.stop();
    const rows = await fresh.database.db.select().from(auditLog);
    expect(rows.map((r) => r.kind).sort()).toEqual(["api_key.created", "request"]);
  } finally {
    await fresh.drop();
  }
});

test("recording off (the benchmark's baseline) records nothing", async () => {
  const fresh = await freshDatabase("pglite");
  const app = await buildTestApp(fresh.database, { audit: { enabled: false } });
  try {
    const member = await factories(app).member();
    expect((await send(app, "/api/v1/whoami", { key: member.key })).status).toBe(200);
    await app.stop();
    expect(await fresh.database.db.select().from(auditLog)).toEqual([]);
  } finally {
    await fresh.drop();
  }
});

test("runNext: a flush now when none runs, else exactly one more right after the running one", async () => {
  let runs = 0;
  const releases: (() => void)[] = [];
  const flush = new PeriodicFlush(async () => {
    runs++;
    await new Promise<void>((resolve) => releases.push(resolve));
  }, 0);
  flush.runNext();
  expect(runs, "nothing running: it starts at once").toBe(1);
  flush.runNext();
  flush.runNext();
  expect(runs, "one is running: the next waits for it").toBe(1);
  releases.shift()?.();
  await eventually(() => runs === 2, "the queued run after the first");
  releases.shift()?.();
  await flush.stop(false);
  expect(runs, "two calls meanwhile queued a single run").toBe(2);
});

test("a flush starts by itself once flushAtRequests requests arrived since the last one", async () => {
  const fresh = await freshDatabase("pglite");
  const app = await buildTestApp(fresh.database, { audit: { flushMs: 0, flushAtRequests: 3 } });
  const requestRows = async () =>
    (await fresh.database.db.select().from(auditLog)).filter((r) => r.kind === "request");
  const written = () => app.services.auditTrail.stats.written;
  try {
    const member = await factories(app).member(); // api_key.created, held
    for (let i = 0; i < 2; i++) await send(app, "/api/v1/whoami", { key: member.key });
    await eventually(() => app.services.auditTrail.stats.received === 3, "two requests recorded");
    expect(written(), "two requests: no flush yet, no timer").toBe(0);
    await send(app, "/api/v1/whoami", { key: member.key });
    await eventually(() => written() === 4, "the third request's flush: event and three requests");
    expect((await requestRows()).reduce((n, r) => n + r.requests, 0)).toBe(3);
    await send(app, "/api/v1/whoami", { key: member.key });
    await send(app, "/api/v1/whoami", { key: member.key });
    await eventually(() => app.services.auditTrail.stats.received === 6, "two more recorded");
    expect(written(), "the count starts again from the flush").toBe(4);
    await send(app, "/api/v1/whoami", { key: member.key });
    await eventually(() => written() === 7, "the next three requests written");
    expect((await requestRows()).reduce((n, r) => n + r.requests, 0)).toBe(6);
  } finally {
    await app.stop();
    await fresh.drop();
  }
});
