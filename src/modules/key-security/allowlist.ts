import { MAX_ALLOWED_IPS, normalizeAllowlistEntry } from "../../auth/ip-allowlist.ts";
import { Problems } from "../../validation.ts";

/**
 * An allowlist as given (GraphQL, the settings form) → its stored form: each entry normalized,
 * duplicates dropped, order kept. Every bad entry is named (`allowedIps.3`); nothing is stored
 * when one is bad.
 */
export function validateAllowlist(entries: readonly string[], path: string[]): string[] {
  const problems = new Problems();
  const stored = collectAllowlist(entries, path, problems);
  problems.throwIfAny();
  return stored;
}

/** The same, adding its problems to `problems` (a form with other fields checked at once). */
export function collectAllowlist(
  entries: readonly string[],
  path: string[],
  problems: Problems,
): string[] {
  problems.check(
    entries.length <= MAX_ALLOWED_IPS,
    path,
    `At most ${MAX_ALLOWED_IPS} addresses or networks`,
  );
  const stored: string[] = [];
  entries.forEach((entry, i) => {
    const normalized = normalizeAllowlistEntry(entry);
    problems.check(
      normalized !== null,
      [...path, String(i)],
      "Not an IPv4 or IPv6 address or network (CIDR with its host bits zero)",
    );
    if (normalized && !stored.includes(normalized)) stored.push(normalized);
  });
  return stored;
}
