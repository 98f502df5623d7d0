import type { LogLevel } from "./config.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** One answered request, as the access log writes it (an `info` line, msg "request"). */
export interface AccessFields {
  requestId: string | undefined;
  method: string;
  path: string;
  status: number;
  durationMs: number | undefined;
  ip: string | undefined;
  organizationId: string | undefined;
  apiKeyId: string | undefined;
  operator: true | undefined;
  userAgent: string | undefined;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** the access log's line: the same text as `info("request", fields)` */
  request(fields: AccessFields): void;
  /** writes lines still held back (the default writer batches stdout); call before exiting */
  flush?(): void;
}

/**
 * One JSON object per line on stdout (stderr for warn/error), ready for any log shipper. The
 * line is written as text around the fields' own JSON, without copying them into a new object
 * (the access log writes one per request). Every line passes `redactSecrets` last, whatever a
 * caller put in its fields.
 */
export function createLogger(
  level: LogLevel,
  write?: (line: string, level: LogLevel) => void,
): Logger {
  const min = RANK[level];
  const out = write ?? batchedWrite();
  const log = (lvl: LogLevel) => {
    const head = `","level":"${lvl}","msg":`;
    return (msg: string, fields?: Record<string, unknown>) => {
      if (RANK[lvl] < min) return;
      const rest = fields ? JSON.stringify(fields) : "{}";
      const tail = rest.length > 2 ? `,${rest.slice(1)}` : "}";
      const line = `{"time":"${timeText()}${head}${JSON.stringify(msg)}${tail}`;
      out(redactSecrets(line), lvl);
    };
  };
  const logger: Logger = {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    request(fields) {
      if (RANK.info < min) return;
      out(accessLine(timeText(), fields), "info");
    },
  };
  if (!write) logger.flush = () => out("", "silent");
  return logger;
}

/**
 * `info("request", fields)`'s line, written field by field (one per request, the costliest
 * line there is): no object to serialise, and only the values a client chose (method, path,
 * user agent, request id) go through `redactSecrets`, which never matches across a quoted
 * value's end. Ids and the address are the service's own text; numbers are finite.
 */
export function accessLine(time: string, f: AccessFields): string {
  let line = `{"time":"${time}","level":"info","msg":"request"`;
  if (f.requestId !== undefined) line += `,"requestId":${requestIdText(f.requestId)}`;
  line += `,"method":${methodText(f.method)},"path":${pathText(f.path)},"status":${f.status}`;
  if (f.durationMs !== undefined) line += `,"durationMs":${f.durationMs}`;
  if (f.ip !== undefined) line += `,"ip":${ipText(f.ip)}`;
  if (f.organizationId !== undefined)
    line += `,"organizationId":${organizationText(f.organizationId)}`;
  if (f.apiKeyId !== undefined) line += `,"apiKeyId":${apiKeyText(f.apiKeyId)}`;
  if (f.operator !== undefined) line += `,"operator":true`;
  if (f.userAgent !== undefined) line += `,"userAgent":${userAgentText(f.userAgent)}`;
  return `${line}}`;
}

const clientText = (value: string) => redactSecrets(JSON.stringify(value));

/**
 * `text` of the last value it was given, kept: a client sends run after run of requests with
 * the same method, path, address, key and user agent, and each field's JSON (and redaction)
 * is then made once per run instead of once per line.
 */
function lastOf(text: (value: string) => string): (value: string) => string {
  let last: string | undefined;
  let lastText = "";
  return (value) => {
    if (value !== last) {
      lastText = text(value);
      last = value;
    }
    return lastText;
  };
}
const methodText = lastOf(clientText);
const pathText = lastOf(clientText);
const userAgentText = lastOf(clientText);
const ipText = lastOf(JSON.stringify);
const organizationText = lastOf(JSON.stringify);
const apiKeyText = lastOf(JSON.stringify);

/**
 * Text of these characters only needs quotes: nothing to escape, and no redaction marker can
 * form (each has an underscore, a slash, a space or whitespace after "earer"). The service's
 * own request ids (UUIDs) are such text, and so are most clients' (X-Request-Id's pattern).
 */
const PLAIN = /^[A-Za-z0-9.:-]*$/;
const requestIdText = (id: string) => (PLAIN.test(id) ? `"${id}"` : clientText(id));

/** The ISO time of this millisecond: the access log writes many lines within one. */
let lastMs = -1;
let lastText = "";
function timeText(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastText = new Date(now).toISOString();
  }
  return lastText;
}

/**
 * stdout lines gathered for up to 50 ms (or 256 lines) and written at once: one write per
 * batch instead of per request. warn and error go to stderr at once, after any held lines, so
 * the order between the two streams stays the order of events. A line of level "silent" only
 * flushes.
 */
function batchedWrite(): (line: string, level: LogLevel) => void {
  let held: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (held.length === 0) return;
    const lines = held;
    held = [];
    console.log(lines.join("\n"));
  };
  return (line, level) => {
    if (level === "warn" || level === "error") {
      flush();
      console.error(line);
      return;
    }
    if (level === "silent") return flush();
    held.push(line);
    if (held.length >= 256) flush();
    else if (timer === undefined) {
      timer = setTimeout(flush, 50);
      (timer as { unref?: () => void }).unref?.();
    }
  };
}

/**
 * What must never reach a log, in a serialised line: API keys, webhook signing secrets, bearer
 * tokens, the tokens in install and invitation links (the access log's path), and the SQL
 * parameters Drizzle appends to a failed query's message (`\nparams: …`, which once carried a
 * freshly generated `whsec_` secret). The cheap `includes` test keeps ordinary lines untouched.
 */
const REDACTIONS: [marker: string, pattern: RegExp, replacement: string][] = [
  // 16+ characters: a whole key; the 6-character display prefix and names like orgit_session stay
  ["orgit_", /orgit_[0-9A-Za-z]{16,}/g, "orgit_[redacted]"],
  ["whsec_", /whsec_[A-Za-z0-9+/=_-]+/g, "whsec_[redacted]"],
  ["earer", /([Bb]earer)(?:\s|\\[nrt])+[^\s"\\]+/g, "$1 [redacted]"],
  ["/install/", /\/install\/[^\s"\\/?#]+/g, "/install/[redacted]"],
  ["/invite/", /\/invite\/[^\s"\\/?#]+/g, "/invite/[redacted]"],
  ["params: ", /params: (?:[^"\\]|\\.)*/g, "params: [redacted]"],
];

/** Any marker at all: one scan of an ordinary line instead of one per marker. */
const ANY_MARKER = new RegExp(
  REDACTIONS.map(([marker]) => marker.replace(/[/]/g, "\\/")).join("|"),
);

export function redactSecrets(line: string): string {
  if (!ANY_MARKER.test(line)) return line;
  let out = line;
  for (const [marker, pattern, replacement] of REDACTIONS) {
    if (out.includes(marker)) out = out.replace(pattern, replacement);
  }
  return out;
}

/**
 * Serialises an unknown thrown value for a log line without losing the stack, and without the
 * values it may carry: a failed SQL statement is logged as its text (placeholders, no
 * parameters) and Postgres's error code, and a stack keeps its frames, not its message.
 */
export function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error: redactSecrets(String(error)) };
  const query = (error as { query?: unknown }).query;
  if (typeof query === "string" && "params" in error) {
    // Drizzle wraps the driver's error (its message lists the parameters); PGlite's own error
    // also carries `query` and `params`, but its message is Postgres's alone
    const cause = (error.cause ?? error) as { message?: string; code?: string };
    return {
      error: `Database error: ${withoutValues(cause.message ?? "query failed")}`,
      errorName: error.name,
      sqlState: cause.code,
      query,
      stack: framesOf(error.stack),
    };
  }
  return { error: error.message, errorName: error.name, stack: framesOf(error.stack) };
}

/** Postgres quotes the offending input at the end of some messages (`…uuid: "abc"`). */
const withoutValues = (message: string) => message.replace(/: ".*"$/s, ': "[redacted]"');

/** The `at …` lines of a stack: its first line repeats the message. */
const framesOf = (stack: string | undefined) =>
  stack
    ?.split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
