import { expect, test } from "bun:test";
import type { Database, Executor } from "../../src/db/client.ts";
import { tickets } from "../../src/db/schema/index.ts";
import {
  BEGINNING,
  type ChangeRow,
  type Position,
  readChanges,
  SEQ_MAX,
} from "../../src/modules/changes/queries.ts";
import { describeEachDriver, useTestApp } from "../helpers/harness.ts";

/**
 * The feed is read below the oldest running transaction (docs/decisions.md §12):
 * a change committed late by a transaction that started earlier is never skipped, and no
 * change is answered twice, whatever order transactions commit in.
 */

type Priority = "low" | "medium" | "high" | "critical";

async function insertTickets(
  db: Executor,
  organizationId: string,
  createdBy: string,
  titles: string[],
  priority: Priority = "medium",
) {
  const description = "Written by the feed-order test.";
  const rows = await db
    .insert(tickets)
    .values(titles.map((title) => ({ organizationId, createdBy, title, description, priority })))
    .returning({ id: tickets.id });
  return rows.map((row) => row.id);
}

/** Reads every change ready now, page by page, the way a client follows `next`. */
async function drain(db: Executor, organizationId: string, from: Position, pageSize = 2) {
  const seen: ChangeRow[] = [];
  let at = from;
  for (;;) {
    const { rows, xmin } = await readChanges(
      db,
      { organizationId, types: ["tickets"], ownerOf: {} },
      at,
      pageSize,
    );
    seen.push(...rows);
    const last = rows.at(-1);
    if (rows.length < pageSize) {
      // everything below xmin is read: the next answer starts at xmin
      const through = BigInt(xmin) - 1n;
      const end = last && BigInt(last.xid) > through ? last : undefined;
      return {
        seen,
        next: end ? { xid: end.xid, seq: end.seq } : { xid: `${through}`, seq: SEQ_MAX },
      };
    }
    at = { xid: (last as ChangeRow).xid, seq: (last as ChangeRow).seq };
  }
}

/** A transaction on another connection that stays open until `commit()`. */
function holdOpen(database: Database, work: (tx: Executor) => Promise<string[]>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let wrote!: (result: { ids: string[]; tx: Executor }) => void;
  const written = new Promise<{ ids: string[]; tx: Executor }>((resolve) => {
    wrote = resolve;
  });
  const done = database.db.transaction(async (tx) => {
    wrote({ ids: await work(tx), tx });
    await released;
  });
  return {
    written,
    async commit() {
      release();
      await done;
    },
  };
}

describeEachDriver("change feed order under concurrent transactions", (driver) => {
  const { db, make } = useTestApp(driver);

  if (driver === "postgres") {
    test("a change committed late by an earlier transaction is drained once, after it commits", async () => {
      const { organizationId, user } = await make.member({ scopes: ["tickets:read"] });
      const main = db.database.db;
      const before = await insertTickets(main, organizationId, user.id, ["Before everything"]);
      const other = await db.openAnother();
      const held = holdOpen(other, (tx) =>
        insertTickets(tx, organizationId, user.id, ["Held open, started first"]),
      );
      const { ids: heldIds } = await held.written;
      const later = [
        ...(await insertTickets(main, organizationId, user.id, ["Later one", "Later two"])),
        ...(await insertTickets(main, organizationId, user.id, ["Later three"])),
      ];

      const first = await drain(main, organizationId, BEGINNING);
      expect(
        first.seen.map((row) => row.recordId),
        "only what precedes the open transaction",
      ).toEqual(before);

      await held.commit();
      const second = await drain(main, organizationId, first.next);
      const all = [...first.seen, ...second.seen].map((row) => row.recordId);
      expect(all.toSorted(), "every change exactly once across both drains").toEqual(
        [...before, ...heldIds, ...later].toSorted(),
      );
      expect(second.seen[0]?.recordId, "the held transaction's change comes first").toBe(
        heldIds[0],
      );

      const third = await drain(main, organizationId, second.next);
      expect(third.seen, "nothing again from the stored token").toEqual([]);
    });
  }

  if (driver === "pglite") {
    test("PGlite runs one transaction at a time: nothing commits while one is open", async () => {
      const { organizationId, user } = await make.member({ scopes: ["tickets:read"] });
      const other = await db.openAnother();
      const held = holdOpen(other, (tx) =>
        insertTickets(tx, organizationId, user.id, ["Held open on PGlite"]),
      );
      const { tx } = await held.written;
      let settled = false;
      const later = insertTickets(db.database.db, organizationId, user.id, [
        "Later on PGlite",
      ]).then((ids) => {
        settled = true;
        return ids;
      });
      // the held transaction keeps working while the later write waits for it
      await insertTickets(tx, organizationId, user.id, ["Second write of the held one"]);
      expect(settled, "a write outside the open transaction waits for it to end").toBe(false);
      await held.commit();
      const laterIds = await later;
      const { seen } = await drain(db.database.db, organizationId, BEGINNING);
      expect(seen.at(-1)?.recordId, "the later write is also the later change").toBe(laterIds[0]);
      expect(new Set(seen.map((row) => row.recordId)).size, "each change once").toBe(seen.length);
    });
  }

  test("a page boundary inside one transaction loses nothing and repeats nothing", async () => {
    const { organizationId, user } = await make.member({ scopes: ["tickets:read"] });
    const ids = await insertTickets(db.database.db, organizationId, user.id, [
      "One of five",
      "Two of five",
      "Three of five",
      "Four of five",
      "Five of five",
    ]);
    const { seen } = await drain(db.database.db, organizationId, BEGINNING, 2);
    expect(
      seen.map((row) => row.recordId),
      "in writing order",
    ).toEqual(
      // the trigger writes one statement's rows in id order
      ids.toSorted(),
    );
  });
});
