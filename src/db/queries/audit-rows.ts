/**
 * A batch's entries as the INSERT reads them (src/db/queries/audit-log.ts): events as they
 * are, a row of folded requests (./audit-fold.ts) with its offsets, durations and request ids
 * as Postgres array literals, or its ids' bytes in base64 (docs/decisions.md §34 and §43).
 */
import { type AuditEntry, type AuditTuple, type Fold, isFold, RequestFolds } from "./audit-fold.ts";

/**
 * A row as the INSERT reads it: the 13 values of an `AuditTuple`, then, for a row of several
 * requests, how many it holds and its offsets (ms after `at`), durations and request ids as
 * Postgres array literals (one cheap cast each on the server). When every id of the row is a
 * lowercase canonical UUID (the service's own, `crypto.randomUUID()`), the ids are instead
 * their bytes, 16 an id, in one base64 text: `request_id_bytes` (drizzle/0025,
 * docs/decisions.md §34 and §43).
 */
export type WrittenRow =
  | AuditTuple
  | [...AuditTuple, requests: number, offsets: string, durations: string, requestIds: string]
  | [
      ...AuditTuple,
      requests: number,
      offsets: string,
      durations: string,
      requestIds: null,
      requestIdBytes: string,
    ];

const BARE = /^[A-Za-z0-9._:-]+$/;

/**
 * An element of a text[] literal: bare when it cannot be misread, quoted and escaped if not.
 * Only a 4-character id can spell NULL, so no other is upper-cased.
 */
function textElement(value: string | null): string {
  if (value === null) return "NULL";
  if (BARE.test(value) && (value.length !== 4 || value.toUpperCase() !== "NULL")) return value;
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}

/**
 * A duration's text in a row's array literal. Durations are hundredths of a millisecond
 * (request-context.ts rounds them) and a busy second repeats the same few hundred, so each
 * one's text is made once: converting a fraction to text was most of a flush's work.
 */
const DURATION_TEXTS: string[] = [];
const DURATION_TEXTS_KEPT = 100_000; // up to 1 s
function durationText(duration: number): string {
  if (Number.isNaN(duration)) return "NULL";
  const hundredths = Math.round(duration * 100);
  if (hundredths / 100 !== duration || hundredths < 0 || hundredths >= DURATION_TEXTS_KEPT)
    return String(duration);
  let text = DURATION_TEXTS[hundredths];
  if (text === undefined) {
    text = String(duration);
    DURATION_TEXTS[hundredths] = text;
  }
  return text;
}

/** A row as written: a fold of one request is that request's own tuple. */
function writtenRow(fold: Fold): WrittenRow {
  const size = fold.size;
  if (size === 1) return fold.first;
  const first = fold.first;
  const durations = new Array<string>(size);
  for (let i = 0; i < size; i++) durations[i] = durationText(fold.durations[i] as number);
  const head = [
    first[0],
    first[1],
    first[2],
    first[3],
    first[4],
    first[5],
    first[6],
    first[7],
    null,
    first[9],
    first[10],
    null,
    null,
    size,
    `{${fold.offsets.subarray(0, size).join(",")}}`,
    `{${durations.join(",")}}`,
  ] as const;
  // the whole row one way or the other: its ids' bytes in base64, or a text[] literal
  const bytes = fold.idBytes;
  return bytes
    ? [...head, null, Buffer.from(bytes.buffer, bytes.byteOffset, size * 16).toString("base64")]
    : [...head, `{${(fold.idTexts ?? []).map(textElement).join(",")}}`];
}

/**
 * The entries as written, in their order: requests still as tuples (tests, benches) are folded
 * here, events pass as they are.
 */
export function writtenRows(entries: AuditEntry[]): WrittenRow[] {
  const out: AuditEntry[] = [];
  const folds = new RequestFolds();
  for (const entry of entries) {
    if (isFold(entry) || entry[2] !== "request") out.push(entry);
    else {
      const started = folds.add(entry);
      if (started) out.push(started);
    }
  }
  return out.map((row) => (isFold(row) ? writtenRow(row) : row));
}

/**
 * `JSON.stringify(writtenRows(entries))`, without the escaping scan over a row's long texts:
 * its offsets, durations and base64 ids hold only digits, letters and `{},.+-/=`, which JSON
 * writes as they are (the scan over some 30 characters a request was a fifth of a flush).
 */
export function writtenJson(entries: AuditEntry[]): string {
  const rows = writtenRows(entries);
  const parts = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as WrittenRow;
    if (row.length === 13 || row[16] !== null) parts[r] = JSON.stringify(row);
    else {
      const head = JSON.stringify(row.slice(0, 14));
      parts[r] = `${head.slice(0, -1)},"${row[14]}","${row[15]}",null,"${row[17]}"]`;
    }
  }
  return `[${parts.join(",")}]`;
}

/** `writtenRows` of requests and events given as tuples. */
export const foldRequests = (rows: AuditTuple[]): WrittenRow[] => writtenRows(rows);
