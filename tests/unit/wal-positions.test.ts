import { expect, test } from "bun:test";
import { replicaSafe } from "../../src/db/replica-client.ts";
import { lagFromSamples, parseLsn, WritePositions } from "../../src/db/wal-positions.ts";

test("WAL positions compare as numbers across the high word", () => {
  expect(parseLsn("0/16B3748")).toBe(0x16b3748n);
  expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
  expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) | 0xb374d848n);
});

test("a replica caught up with the primary's newest position has no lag, however old its last replayed transaction", () => {
  const samples = [
    { at: 0, lsn: 100n },
    { at: 60_000, lsn: 100n },
  ];
  expect(lagFromSamples(samples, 100n, 61_000)).toBe(0);
});

test("a replica behind is as old as the newest primary position it reached; behind them all: unknown", () => {
  const samples = [
    { at: 1_000, lsn: 100n },
    { at: 2_000, lsn: 200n },
    { at: 3_000, lsn: 300n },
  ];
  expect(lagFromSamples(samples, 250n, 3_500)).toBe(1_500);
  expect(lagFromSamples(samples, 100n, 3_500)).toBe(2_500);
  expect(lagFromSamples(samples, 50n, 3_500)).toBeNull();
  expect(lagFromSamples([], 50n, 3_500)).toBe(0);
});

test("a caller's position only grows, and goes once every replica replayed it", () => {
  const positions = new WritePositions(1_000);
  positions.set("key:a", 200n);
  positions.set("key:a", 150n);
  expect(positions.get("key:a")).toBe(200n);
  expect(positions.get("key:b")).toBeUndefined();
  expect(positions.get(undefined)).toBeUndefined();
  positions.set("key:b", 300n);
  positions.prune(250n);
  expect(positions.get("key:a")).toBeUndefined();
  expect(positions.get("key:b")).toBe(300n);
});

test("a write whose position could not be read keeps its caller on the primary for a while", () => {
  let now = 0;
  const positions = new WritePositions(1_000, () => now);
  positions.unknown("key:a");
  expect(positions.get("key:a")).toBe((1n << 64n) - 1n);
  positions.prune(1n << 40n);
  expect(positions.get("key:a")).toBeDefined();
  now = 1_001;
  expect(positions.get("key:a")).toBeUndefined();
});

test("only plain selects may go to a replica: no row locks, no side effects, no writes", () => {
  expect(replicaSafe('select "id" from "tickets" where "organization_id" = $1')).toBe(true);
  expect(replicaSafe("  SELECT 1")).toBe(true);
  expect(replicaSafe('select "id" from "deliveries" for update skip locked')).toBe(false);
  expect(replicaSafe('select "id" from "tickets" for no key update')).toBe(false);
  expect(replicaSafe('select "id" from "tickets" for share')).toBe(false);
  expect(replicaSafe("select pg_notify($1, $2)")).toBe(false);
  expect(replicaSafe("select pg_advisory_xact_lock($1)")).toBe(false);
  expect(replicaSafe('insert into "tickets" ("id") values ($1)')).toBe(false);
  expect(replicaSafe('with moved as (delete from "outbox" returning *) select * from moved')).toBe(
    false,
  );
  expect(replicaSafe('update "api_keys" set "last_used_at" = $1')).toBe(false);
});
