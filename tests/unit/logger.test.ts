import { afterEach, expect, test } from "bun:test";
import { createLogger } from "../../src/logger.ts";

const original = { log: console.log, error: console.error };
afterEach(() => {
  console.log = original.log;
  console.error = original.error;
});

test("a line is one JSON object: time, level, msg, then the fields as given", () => {
  const lines: string[] = [];
  const logger = createLogger("info", (line) => lines.push(line));
  logger.info("request", { status: 200, path: '/a"b', skipped: undefined });
  logger.info("plain");
  logger.debug("below the level");
  expect(lines).toHaveLength(2);
  const [first, second] = lines.map((line) => JSON.parse(line));
  expect(Object.keys(first)).toEqual(["time", "level", "msg", "status", "path"]);
  expect(first).toMatchObject({ level: "info", msg: "request", status: 200, path: '/a"b' });
  expect(new Date(first.time).toISOString()).toBe(first.time);
  expect(Object.keys(second)).toEqual(["time", "level", "msg"]);
});

test("stdout lines are batched; a warning first writes what is held, so order is kept", () => {
  const written: string[] = [];
  console.log = (text: string) => written.push(`out:${text}`);
  console.error = (text: string) => written.push(`err:${text}`);
  const logger = createLogger("info");
  logger.info("one");
  logger.info("two");
  expect(written, "held until the batch is written").toEqual([]);
  logger.warn("three");
  expect(written.map((w) => w.replace(/"time":"[^"]+",/g, ""))).toEqual([
    'out:{"level":"info","msg":"one"}\n{"level":"info","msg":"two"}',
    'err:{"level":"warn","msg":"three"}',
  ]);
  logger.info("four");
  logger.flush?.();
  expect(written).toHaveLength(3);
  expect(written[2]).toContain('"msg":"four"');
});
