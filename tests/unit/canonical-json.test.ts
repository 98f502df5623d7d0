import { expect, test } from "bun:test";
import { canonicalJson } from "../../src/http/idempotency.ts";

/**
 * The Idempotency-Key request hash is taken over canonical JSON: bodies equal as JSON hash the
 * same, and bodies that differ in any way hash differently (or a retry with another body would
 * replay the first response instead of answering 409).
 */
test("object keys are sorted at every depth, undefined members dropped", () => {
  expect(canonicalJson({ b: 1, a: { d: [1, 2], c: "x" }, u: undefined })).toBe(
    '{"a":{"c":"x","d":[1,2]},"b":1}',
  );
  expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  expect(canonicalJson({ zz: 1, a: 2, m: 3, b: 4 })).toBe('{"a":2,"b":4,"m":3,"zz":1}');
});

test("arrays keep their order and separators", () => {
  expect(canonicalJson([3, 1, 2])).toBe("[3,1,2]");
  expect(canonicalJson([{ b: 1, a: 2 }, []])).toBe('[{"a":2,"b":1},[]]');
  expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
});

test("scalars, null, dates and a missing body are written as JSON", () => {
  expect(canonicalJson("text")).toBe('"text"');
  expect(canonicalJson(0)).toBe("0");
  expect(canonicalJson(false)).toBe("false");
  expect(canonicalJson(null)).toBe("null");
  expect(canonicalJson(undefined)).toBe("null");
  expect(canonicalJson(new Date("2026-01-02T03:04:05.000Z"))).toBe('"2026-01-02T03:04:05.000Z"');
  expect(canonicalJson({ name: "" })).not.toBe(canonicalJson({ name: "x" }));
});
