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
