/**
 * Folding a batch of audit rows before it is written (drizzle/0023, docs/decisions.md §30):
 * the requests of one second that share everything but their time, duration and request id
 * (organization, key, owner, method, route template, status, client address, user agent)
 * become one row. Postgres spends most of a recorded request's cost on the row itself (its
 * tuple and four index entries), so a key's busy second costs one row instead of thousands.
 * Events, and requests alone in their group, are written as they are.
 */

/**
 * One audit row as the recorder keeps it until the batch is written: a tuple rather than an
 * object (no 13 property names per row in memory and in the JSON), its time in epoch ms.
 */
export type AuditTuple = [
  at: number,
  organizationId: string | null,
  kind: string,
  apiKeyId: string | null,
  userId: string | null,
  method: string | null,
  route: string | null,
  status: number | null,
  durationMs: number | null,
  ip: string | null,
  userAgent: string | null,
  requestId: string | null,
  detail: Record<string, unknown> | null,
];

/** a folded row's requests all fall in one slot of this length, aligned on the epoch */
export const FOLD_SLOT_MS = 1_000;
/** at most this many requests in one row (its arrays stay a few tens of KiB) */
export const MAX_FOLDED = 1_000;

/**
 * A row as the INSERT reads it: the 13 values of an `AuditTuple`, then, for a row of several
 * requests, how many it holds and its offsets (ms after `at`), durations and request ids as
 * Postgres array literals (one cheap cast each on the server). When every id of the row is a
 * lowercase canonical UUID (the service's own, `crypto.randomUUID()`), the ids are instead
 * their 32 hexadecimal digits each, concatenated: `request_id_bytes`, 16 bytes an id
 * (drizzle/0025, docs/decisions.md §34).
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
      requestIdHex: string,
    ];

/**
 * The requests of one row while they arrive (the recorder folds each request into its row at
 * once, docs/decisions.md §35): the first request's tuple, and every request's offset, duration
 * and id, the first's included.
 */
export interface Fold {
  first: AuditTuple;
  slot: number;
  offsets: number[];
  durations: (number | null)[];
  requestIds: (string | null)[];
  /** whether every request id so far is a lowercase canonical UUID */
  canonical: boolean;
}

/** What a batch holds: a key or session event as its tuple, or a row of requests. */
export type AuditEntry = AuditTuple | Fold;

/** The start of the fold slot holding `ms` (a row's requests all lie in its first's slot). */
export const slotOf = (ms: number) => ms - (((ms % FOLD_SLOT_MS) + FOLD_SLOT_MS) % FOLD_SLOT_MS);

/** Whether `row` differs from `first` only in time, duration and request id. */
const sameRequest = (first: AuditTuple, row: AuditTuple) =>
  first[1] === row[1] &&
  first[3] === row[3] &&
  first[4] === row[4] &&
  first[5] === row[5] &&
  first[6] === row[6] &&
  first[7] === row[7] &&
  first[9] === row[9] &&
  first[10] === row[10];

const groupKey = (row: AuditTuple, slot: number) =>
  `${slot}\u0000${row[1]}\u0000${row[3]}\u0000${row[4]}\u0000${row[5]}\u0000${row[6]}\u0000${row[7]}\u0000${row[9]}\u0000${row[10]}`;

const BARE = /^[A-Za-z0-9._:-]+$/;
const HYPHENS = /-/g;

/**
 * A request id as `crypto.randomUUID()` makes them, which reads back the same from its 16
 * bytes. Anything else (a client's X-Request-Id, an upper-case or braced UUID) is kept as text.
 */
export const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An element of a text[] literal: bare when it cannot be misread, quoted and escaped if not.
 * Runs once per folded request: only a 4-character id can spell NULL, so no other is upper-cased.
 */
function textElement(value: string | null): string {
  if (value === null) return "NULL";
  if (BARE.test(value) && (value.length !== 4 || value.toUpperCase() !== "NULL")) return value;
  return `"${value.replace(/["\\]/g, "\\$&")}"`;
}

/**
 * The rows being folded, until a flush takes them (`close`). `add` folds a request into its
 * row (the requests of one second that share everything but their time, duration and id)
 * and answers the new row when it starts one; the caller keeps rows in that order.
 */
export class RequestFolds {
  private open = new Map<string, Fold>();
  /** requests mostly come in runs of one client's: the row of the one before, unkeyed */
  private last: Fold | undefined;

  /** `row`, a request's tuple, folded; a new row is returned, an existing one grows. */
  add(row: AuditTuple): Fold | undefined {
    const slot = slotOf(row[0]);
    const last = this.last;
    let fold =
      last && last.slot === slot && last.offsets.length < MAX_FOLDED && sameRequest(last.first, row)
        ? last
        : undefined;
    let started: Fold | undefined;
    if (!fold) {
      const key = groupKey(row, slot);
      fold = this.open.get(key);
      if (!fold || fold.offsets.length >= MAX_FOLDED) {
        fold = { first: row, slot, offsets: [], durations: [], requestIds: [], canonical: true };
        this.open.set(key, fold);
        started = fold;
      }
    }
    fold.offsets.push(row[0] - fold.first[0]);
    fold.durations.push(row[8]);
    fold.requestIds.push(row[11]);
    if (fold.canonical) fold.canonical = row[11] !== null && CANONICAL_UUID.test(row[11]);
    this.last = fold;
    return started;
  }

  /** The rows so far are taken: later requests start rows of their own. */
  close(): void {
    this.open = new Map();
    this.last = undefined;
  }
}

/** A row of requests, rather than an event's (or a test's unfolded request's) tuple. */
export const isFold = (entry: AuditEntry): entry is Fold => !Array.isArray(entry);

/** How many entries of the log an entry holds (a key's usage counts them). */
export const entryWeight = (entry: AuditEntry) => (isFold(entry) ? entry.offsets.length : 1);

/**
 * A duration's text in a row's array literal. Durations are hundredths of a millisecond
 * (request-context.ts rounds them) and a busy second repeats the same few hundred, so each
 * one's text is made once: converting a fraction to text was most of a flush's work.
 */
const DURATION_TEXTS: string[] = [];
const DURATION_TEXTS_KEPT = 100_000; // up to 1 s
function durationText(duration: number | null): string {
  if (duration === null) return "NULL";
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
  if (fold.offsets.length === 1) return fold.first;
  const first = fold.first;
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
    fold.offsets.length,
    `{${fold.offsets.join(",")}}`,
    `{${fold.durations.map(durationText).join(",")}}`,
  ] as const;
  // the whole row one way or the other: its ids' 16 bytes in hex, or a text[] literal
  return fold.canonical
    ? [...head, null, fold.requestIds.join("").replace(HYPHENS, "")]
    : [...head, `{${fold.requestIds.map(textElement).join(",")}}`];
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

/** `writtenRows` of requests and events given as tuples. */
export const foldRequests = (rows: AuditTuple[]): WrittenRow[] => writtenRows(rows);

/** A request id stored as its 16 bytes (drizzle/0025), from their 32 hexadecimal digits. */
export const uuidOfHex = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
