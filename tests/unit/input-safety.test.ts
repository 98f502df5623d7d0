import { expect, test } from "bun:test";
import {
  jsonNestingExceeds,
  MAX_JSON_DEPTH,
  parseInstant,
  textProblem,
  unsafeInputDetails,
} from "../../src/input-safety.ts";

test("parseInstant: strict RFC 3339 with an offset, real calendar days, years 0001–9999", () => {
  const ok: [string, string][] = [
    ["2026-01-31T12:00:00Z", "2026-01-31T12:00:00.000Z"],
    ["2026-01-31T12:00Z", "2026-01-31T12:00:00.000Z"],
    ["2026-01-31T12:00:00.123456789+05:30", "2026-01-31T06:30:00.123Z"],
    ["2028-02-29T00:00:00Z", "2028-02-29T00:00:00.000Z"],
    ["2000-02-29T00:00:00Z", "2000-02-29T00:00:00.000Z"],
    ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"],
    ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
  ];
  for (const [text, iso] of ok) expect(parseInstant(text)?.toISOString(), text).toBe(iso);
  for (const text of [
    "2026-02-31T00:00:00Z", // would roll over into March
    "2026-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-01-31T24:00:00Z",
    "2026-01-31T12:60:00Z",
    "2026-01-31T12:00:60Z",
    "2026-01-31T12:00:00+24:00",
    "2026-01-31T12:00:00", // no offset: local time would be guessed
    "0000-01-01T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "+010000-01-01T00:00:00Z",
    "0001-01-01T00:30:00+01:00", // year 0 once the offset is applied
    "9999-12-31T23:30:00-01:00", // year 10000 once the offset is applied
    "yesterday",
    "",
  ]) {
    expect(parseInstant(text), text).toBeUndefined();
  }
});

test("jsonNestingExceeds counts brackets outside strings only", () => {
  const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
  expect(jsonNestingExceeds(deep(MAX_JSON_DEPTH))).toBe(false);
  expect(jsonNestingExceeds(deep(MAX_JSON_DEPTH + 1))).toBe(true);
  expect(jsonNestingExceeds(JSON.stringify({ a: "[[[[{{{{".repeat(100) }))).toBe(false);
  expect(jsonNestingExceeds(JSON.stringify({ a: 'quote \\" [[[ \\\\' }))).toBe(false);
  expect(jsonNestingExceeds(`{"a":"\\"",${'"b":'.repeat(1)}${deep(100)}}`)).toBe(true);
});

test("unsafeInputDetails names every bad string and key, and stops at the depth limit", () => {
  expect(textProblem("fine ✓ 🚀")).toBeUndefined();
  expect(textProblem("a\u0000")).toContain("NUL");
  expect(textProblem("\udc00")).toContain("unpaired surrogate");
  expect(textProblem("\ud83d\ude80")).toBeUndefined(); // a proper pair
  const details = unsafeInputDetails({
    name: "ok",
    items: [{ name: "x\u0000" }, { tags: ["\ud800"] }],
    "k\u0000": 1,
  });
  expect(details.map((d) => d.path)).toEqual([
    ["items", "0", "name"],
    ["items", "1", "tags", "0"],
    ["k\\u0000"],
  ]);
  let deep: unknown = "leaf";
  for (let i = 0; i < 10_000; i++) deep = [deep];
  expect(unsafeInputDetails({ x: deep })).toEqual([
    { path: ["x", ...Array(MAX_JSON_DEPTH - 1).fill("0")], message: expect.stringContaining("64") },
  ]);
});
