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
 * The requests of one row while they arrive (the recorder folds each request into its row at
 * once, docs/decisions.md §35 and §43): the first request's tuple, and every request's offset,
 * duration and id, the first's included, in typed arrays (no object kept per request until the
 * flush). An id is kept as its 16 bytes while every id of the row is a lowercase canonical UUID,
 * and as text from the first that is not.
 */
export interface Fold {
  first: AuditTuple;
  slot: number;
  /** the requests it holds: the arrays' leading elements */
  size: number;
  /** the greatest offset so far (the row's last request: a key's last use) */
  latest: number;
  /** ms after `first`'s time: within one slot, so well inside 16 bits */
  offsets: Int16Array;
  /** NaN: none */
  durations: Float64Array;
  /** 16 bytes an id, or null once an id was not a lowercase canonical UUID */
  idBytes: Uint8Array | null;
  /** the ids as text once `idBytes` is null (the earlier ones read back from their bytes) */
  idTexts: (string | null)[] | null;
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

/** each hexadecimal digit's value by its character code; -1 for any other character */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (const [i, digit] of [..."0123456789abcdef"].entries()) HEX_VALUE[digit.charCodeAt(0)] = i;
/** where each of a canonical UUID's 16 bytes is written: two digits from these positions */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * Writes the 16 bytes of a request id made as `crypto.randomUUID()` makes them (lowercase,
 * hyphenated: the text it reads back as from its bytes) into `bytes` at `at`. Answers false
 * for anything else (a client's X-Request-Id, an upper-case or braced UUID), the bytes then
 * partly written.
 */
function putUuid(id: string, bytes: Uint8Array, at: number): boolean {
  if (id.length !== 36) return false;
  if (id[8] !== "-" || id[13] !== "-" || id[18] !== "-" || id[23] !== "-") return false;
  for (let k = 0; k < 16; k++) {
    const i = BYTE_AT[k] as number;
    const high = id.charCodeAt(i);
    const low = id.charCodeAt(i + 1);
    const value = ((HEX_VALUE[high] ?? -1) << 4) | (HEX_VALUE[low] ?? -1);
    if (value < 0) return false;
    bytes[at + k] = value;
  }
  return true;
}

/** A request id stored as its 16 bytes (drizzle/0025), from their 32 hexadecimal digits. */
export const uuidOfHex = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

/** a row's arrays start this long and grow fourfold (most rows of a busy key fill up) */
const FIRST_CAPACITY = 4;

function newFold(first: AuditTuple, slot: number): Fold {
  return {
    first,
    slot,
    size: 0,
    latest: 0,
    offsets: new Int16Array(FIRST_CAPACITY),
    durations: new Float64Array(FIRST_CAPACITY),
    idBytes: new Uint8Array(FIRST_CAPACITY * 16),
    idTexts: null,
  };
}

function grow(fold: Fold): void {
  const capacity = Math.min(fold.offsets.length * 4, MAX_FOLDED);
  const offsets = new Int16Array(capacity);
  offsets.set(fold.offsets);
  fold.offsets = offsets;
  const durations = new Float64Array(capacity);
  durations.set(fold.durations);
  fold.durations = durations;
  if (fold.idBytes) {
    const bytes = new Uint8Array(capacity * 16);
    bytes.set(fold.idBytes);
    fold.idBytes = bytes;
  }
}

/** The row's ids so far as text: it is about to keep an id that is not a canonical UUID. */
function idsAsText(fold: Fold, bytes: Uint8Array): (string | null)[] {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, fold.size * 16).toString("hex");
  return Array.from({ length: fold.size }, (_, i) => uuidOfHex(hex.slice(i * 32, i * 32 + 32)));
}

/** Folds one request into `fold`, which has room for it. */
function append(fold: Fold, row: AuditTuple): void {
  if (fold.size === fold.offsets.length) grow(fold);
  const i = fold.size;
  const offset = row[0] - fold.first[0];
  fold.offsets[i] = offset;
  if (offset > fold.latest) fold.latest = offset;
  fold.durations[i] = row[8] ?? Number.NaN;
  const id = row[11];
  const bytes = fold.idBytes;
  if (bytes && (id === null || !putUuid(id, bytes, i * 16))) {
    fold.idTexts = idsAsText(fold, bytes);
    fold.idBytes = null;
  }
  fold.idTexts?.push(id);
  fold.size = i + 1;
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
      last && last.slot === slot && last.size < MAX_FOLDED && sameRequest(last.first, row)
        ? last
        : undefined;
    let started: Fold | undefined;
    if (!fold) {
      const key = groupKey(row, slot);
      fold = this.open.get(key);
      if (!fold || fold.size >= MAX_FOLDED) {
        fold = newFold(row, slot);
        this.open.set(key, fold);
        started = fold;
      }
    }
    append(fold, row);
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
export const entryWeight = (entry: AuditEntry) => (isFold(entry) ? entry.size : 1);
