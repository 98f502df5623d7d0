import type { LogLevel } from "./config.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * One JSON object per line on stdout (stderr for warn/error), ready for any log shipper. Every
 * line passes `redactSecrets` last, whatever a caller put in its fields.
 */
export function createLogger(
  level: LogLevel,
  write: (line: string, level: LogLevel) => void = defaultWrite,
): Logger {
  const min = RANK[level];
  const log = (lvl: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (RANK[lvl] < min) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields });
    write(redactSecrets(line), lvl);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function defaultWrite(line: string, level: LogLevel) {
  if (level === "warn" || level === "error") console.error(line);
  else console.log(line);
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

export function redactSecrets(line: string): string {
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
