import { expect, test } from "bun:test";
import { BoundedBatch, PeriodicFlush } from "../../src/db/batched-writes.ts";
import { auditLog } from "../../src/db/schema/audit-log.ts";
import { createLogger } from "../../src/logger.ts";
import { buildTestApp, factories, freshDatabase, send } from "../helpers/harness.ts";
import { eventually } from "../helpers/wait.ts";
import { sendRecorded } from "./helpers.ts";

const logger = createLogger("error");

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
  expect(batch.stats).toEqual({ received: 5, pending: 3, written: 0, dropped: 2 });
  await batch.flush();
  expect(batch.stats, "a failed batch goes back; nothing grows").toEqual({
    received: 5,
    pending: 3,
    written: 0,
    dropped: 2,
  });
  up = true;
  await batch.flush();
  expect(written, "in order, in batches of at most 2").toEqual([[1, 2], [3]]);
  expect(batch.stats).toEqual({ received: 5, pending: 0, written: 3, dropped: 2 });
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
  expect(batch.stats).toEqual({ received: 4, pending: 2, written: 2, dropped: 0 });
  batch.add(5);
  await batch.drain();
  expect(written, "drain (shutdown) writes everything, in order").toEqual([
    [1, 2],
    [3, 4, 5],
  ]);
  expect(batch.stats).toEqual({ received: 5, pending: 0, written: 5, dropped: 0 });
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
  expect(batch.stats).toEqual({ received: 3, pending: 3, written: 0, dropped: 0 });
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
