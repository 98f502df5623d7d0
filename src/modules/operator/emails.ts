import { readFileSync } from "node:fs";

/**
 * Emails as identities (docs/security.md, "Lookalike emails"): stored NFKC-normalised with the
 * domain lower-cased; characters that cannot be seen (zero-width, bidi controls, other format
 * characters) refused; and a new email refused when its confusable skeleton (Unicode TR39 §4:
 * each character replaced by its prototype) equals an existing one's. The prototypes are the
 * whole of Unicode's confusables.txt (data/confusables.txt, written by
 * scripts/unicode-confusables.ts with the Unicode version and the source's SHA-256 in its
 * header). A skeleton is for comparison only, never shown or stored.
 */

// default-ignorable and format characters, controls, and the separators email never holds
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u00A0\u115F\u1160\u17B4\u17B5\u2000-\u200A\u202F\u205F\u3000\u3164\uFFA0]/u;
/** combining marks that show nothing: grapheme joiner, Mongolian and other variation selectors */
const INVISIBLE_MARKS = /\u034F|\u180B|\u180C|\u180D|\u180F|[\uFE00-\uFE0F]/u;

export const hasInvisible = (email: string) => INVISIBLE.test(email) || INVISIBLE_MARKS.test(email);

/** trimmed, NFKC, domain lower-cased (the local part keeps its case, RFC 5321 §2.4) */
export function normalizeEmail(input: string): string {
  const email = input.trim().normalize("NFKC");
  const at = email.lastIndexOf("@");
  return at < 0 ? email : email.slice(0, at + 1) + email.slice(at + 1).toLowerCase();
}

let prototypes: Map<string, string> | undefined;

/** character → its prototype, from Unicode's confusables.txt (data/confusables.txt, generated) */
function prototypeMap(): Map<string, string> {
  if (prototypes) return prototypes;
  prototypes = new Map();
  const text = readFileSync(new URL("./data/confusables.txt", import.meta.url), "utf8");
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const [source = "", target = ""] = line.split(";");
    const chars = (hex: string) =>
      String.fromCodePoint(...hex.split(" ").map((h) => Number.parseInt(h, 16)));
    prototypes.set(chars(source), chars(target));
  }
  return prototypes;
}

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** UTS #39 §4 skeleton: NFD, default-ignorable characters removed, prototypes, NFD again. */
export function skeleton(text: string): string {
  const map = prototypeMap();
  const folded = [...text.normalize("NFD").replace(IGNORABLE, "")].map((c) => map.get(c) ?? c);
  return folded.join("").normalize("NFD");
}

/**
 * What an email looks like, as skeletons: two emails that share one look the same. Addresses
 * are compared case-insensitively, so both the skeleton of the address as stored (where a
 * capital `I` meets `l`) and that of its lower-case form are taken, each lower-cased and
 * skeletonised again (`0`, whose prototype is `O`, then meets `o`).
 */
export function emailSkeletons(email: string): string[] {
  const stored = normalizeEmail(email);
  const keys = [stored, stored.toLowerCase()].map((form) => skeleton(skeleton(form).toLowerCase()));
  return [...new Set(keys)];
}

/** Whether two emails look the same (their skeletons meet). */
export function looksLike(a: string[], b: string): boolean {
  return emailSkeletons(b).some((key) => a.includes(key));
}
