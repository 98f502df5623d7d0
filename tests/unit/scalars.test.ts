import { expect, test } from "bun:test";
import { DateTime } from "../../src/graphql/scalars.ts";

test("DateTime writes a Date, and any time given as text, as toISOString does", () => {
  const at = new Date("2026-03-01T23:59:59.999Z");
  expect(DateTime.serialize(at)).toBe("2026-03-01T23:59:59.999Z");
  // text already in that form (a page's times, read as text) passes as it is
  expect(DateTime.serialize("2026-03-01T23:59:59.999Z")).toBe("2026-03-01T23:59:59.999Z");
  // any other text is read as a time and written again
  for (const [text, written] of [
    ["2026-03-01 23:59:59.999999+00", "2026-03-01T23:59:59.999Z"],
    ["2026-03-01T23:59:59Z", "2026-03-01T23:59:59.000Z"],
    ["2026-03-02T01:00:00.000+01:00", "2026-03-02T00:00:00.000Z"],
    ["2026-03-01T23:59:59.9999Z", "2026-03-01T23:59:59.999Z"],
  ]) {
    expect(DateTime.serialize(text), text).toBe(written as string);
  }
  expect(() => DateTime.serialize("not a time")).toThrow();
});
