import { type ErrorDetail, validationFailed } from "./errors.ts";

/**
 * The one place that decides which input text and dates the service can store. REST (the
 * `inputGuard` plugin over body, query and path parameters) and GraphQL (the `inputGuardPlugin`
 * over argument literals and variables) both call it, so neither a route nor a resolver can
 * forget it. Postgres refuses NUL in text and years outside its range with an error that used
 * to surface as a 500; lone UTF-16 surrogates cannot be encoded as UTF-8 at all.
 */

/** Deepest JSON nesting a body may have: far beyond any real payload, far below a stack. */
export const MAX_JSON_DEPTH = 64;
/** At most this many problems are listed: one bad field per entry is enough to fix a request. */
const MAX_DETAILS = 20;

const NUL = "\u0000";
// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** What is wrong with one string, or undefined when it can be stored. */
export function textProblem(text: string): string | undefined {
  if (text.includes(NUL)) return "Must not contain a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(text)) return "Must be valid Unicode (it has an unpaired surrogate)";
  return undefined;
}

/**
 * Every string (and object key) in a parsed JSON value that cannot be stored, and nesting past
 * MAX_JSON_DEPTH, as `Validation failed` details whose path names the field. The walk stops at
 * the depth limit, so it never recurses deeper than that itself.
 */
export function unsafeInputDetails(value: unknown, path: string[] = []): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const walk = (node: unknown, at: string[], depth: number): void => {
    if (details.length >= MAX_DETAILS) return;
    if (typeof node === "string") {
      const problem = textProblem(node);
      if (problem) details.push({ path: at, message: problem });
      return;
    }
    if (typeof node !== "object" || node === null) return;
    if (depth >= MAX_JSON_DEPTH) {
      details.push({ path: at, message: `Must not be nested more than ${MAX_JSON_DEPTH} levels` });
      return;
    }
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, [...at, String(index)], depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(node)) {
      const problem = textProblem(key);
      // the key is named in a form that can itself be printed and stored
      const printable = key.replaceAll(NUL, "\\u0000").replace(LONE_SURROGATES, "\uFFFD");
      if (problem) details.push({ path: [...at, printable], message: `Field name: ${problem}` });
      else walk(item, [...at, key], depth + 1);
    }
  };
  walk(value, path, 0);
  return details;
}

/** Throws `Validation failed` when any of the given inputs holds text that cannot be stored. */
export function assertSafeInput(...values: unknown[]): void {
  const details = values.flatMap((value) => unsafeInputDetails(value));
  if (details.length > 0) throw validationFailed(details.slice(0, MAX_DETAILS));
}

/**
 * Whether JSON text nests deeper than `max`, decided by one pass over the characters (strings
 * skipped), before JSON.parse and before any recursive validator sees it: 10,000 nested
 * arrays inside a field used to overflow the validation's stack.
 */
export function jsonNestingExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

// RFC 3339 date-time with an explicit offset, so a sender's local time is never guessed
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Earliest and latest instant accepted: years 0001 to 9999, what ISO 8601 writes with 4 digits. */
const FIRST_MS = new Date("0001-01-01T00:00:00Z").getTime();
const LAST_MS = new Date("9999-12-31T23:59:59.999Z").getTime();

const daysInMonth = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

export const INSTANT_FORMAT =
  "Must be an ISO 8601 date-time with a time zone between years 0001 and 9999, e.g. 2026-01-31T12:00:00Z";

/**
 * A strict RFC 3339 instant, or undefined. Unlike `new Date`, a day the month does not have
 * (`2026-02-31`) is refused rather than rolled over into March, and so is any instant outside
 * years 0001–9999 (after applying the offset), which Postgres or ISO formatting cannot carry.
 */
export function parseInstant(text: string): Date | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) =>
    Number(m[i] ?? 0),
  ) as [number, number, number, number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return;
  if (hour > 23 || minute > 59 || second > 59) return;
  if (m[9] && (Number(m[10]) > 23 || Number(m[11]) > 59)) return;
  const date = new Date(text.toUpperCase());
  const ms = date.getTime();
  if (Number.isNaN(ms) || ms < FIRST_MS || ms > LAST_MS) return undefined;
  return date;
}
