import { readFileSync } from "node:fs";

/**
 * What a new password must not be, after NIST SP 800-63B §3.1.1.2 (no composition rules, a
 * check against commonly used values): only whitespace; one of the 10,000 most common
 * passwords (`data/common-passwords.txt`, SecLists' `10k-most-common.txt`, MIT licence),
 * alone, with digits or symbols added at the end, or repeated; a short pattern repeated; or
 * containing the account's email or the part before its `@`. Length is checked apart
 * (PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH). Returns the message to show, or undefined.
 */
let common: Set<string> | undefined;

function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(new URL("./data/common-passwords.txt", import.meta.url), "utf8")
      .split("\n")
      .filter(Boolean),
  );
  return common;
}

export function passwordWeakness(password: string, email?: string): string | undefined {
  if (password.trim() === "") return "Must not be only spaces";
  const p = password.normalize("NFKC").toLowerCase();
  const list = commonPasswords();
  const base = p.replace(/[\d\W_]+$/u, "");
  const unit = /^(.{1,12}?)\1+$/su.exec(p)?.[1];
  if (
    list.has(p) ||
    (base.length > 0 && list.has(base)) ||
    (unit !== undefined && ([...unit].length <= 3 || list.has(unit)))
  ) {
    return "Is too common or too easy to guess; choose a longer phrase of unrelated words";
  }
  if (email) {
    const address = email.normalize("NFKC").toLowerCase();
    const local = address.split("@")[0] ?? "";
    if (p.includes(address) || (local.length >= 3 && p.includes(local))) {
      return "Must not contain your email address";
    }
  }
  return undefined;
}
