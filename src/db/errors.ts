/** Postgres SQLSTATE of a failed query, whichever driver raised it (Drizzle wraps the cause). */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === "23505";

/** The one row a `.returning()` or a found-by-key query must have produced. */
export function single<T>(rows: T[]): T {
  const [row] = rows;
  if (row === undefined) throw new Error("expected one row, got none");
  return row;
}

/** postgres.js's own codes for a connection that closed, failed to open or was ended. */
const DRIVER_CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * The error code when a query failed because the database could not be reached or dropped the
 * connection (terminated backend, restart, failover, refused connection), as opposed to a
 * failure of the query itself: SQLSTATE class 08 (connection exception), 57P01..57P03
 * (admin/crash shutdown, cannot connect now), or postgres.js's connection codes.
 */
export function databaseUnavailableCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") {
      if (DRIVER_CONNECTION_CODES.has(code)) return code;
      if (
        /^08[0-9A-Z]{3}$/.test(code) ||
        code === "57P01" ||
        code === "57P02" ||
        code === "57P03"
      ) {
        return code;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Runs a read once more when it lost its connection (failover, terminated backend): postgres.js
 * reconnects on demand, so a blip then costs the caller nothing. Only for statements that are
 * safe to repeat; any other failure, or a second loss, is thrown. `first`: the first attempt,
 * already under way.
 */
export async function readWithRetry<T>(read: () => Promise<T>, first?: Promise<T>): Promise<T> {
  try {
    return await (first ?? read());
  } catch (error) {
    if (!databaseUnavailableCode(error)) throw error;
    return read();
  }
}
