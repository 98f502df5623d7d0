import type { LogLevel } from "./config.ts";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** writes lines still held back (the default writer batches stdout); call before exiting */
  flush?(): void;
}

/**
 * One JSON object per line on stdout (stderr for warn/error), ready for any log shipper. The
 * line is written as text around the fields' own JSON, without copying them into a new object
 * (the access log writes one per request).
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
      out(`{"time":"${new Date().toISOString()}${head}${JSON.stringify(msg)}${tail}`, lvl);
    };
  };
  const logger: Logger = {
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
  };
  if (!write) logger.flush = () => out("", "silent");
  return logger;
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

/** Serialises an unknown thrown value for a log line without losing the stack. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error) {
    return { error: error.message, errorName: error.name, stack: error.stack };
  }
  return { error: String(error) };
}
