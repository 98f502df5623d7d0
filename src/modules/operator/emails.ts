/**
 * Emails as identities (docs/security.md, "Lookalike emails"): stored NFKC-normalised with the
 * domain lower-cased; characters that cannot be seen (zero-width, bidi controls, other format
 * characters) refused; and a new email refused when its confusable skeleton (Unicode TR39 §4:
 * each character replaced by its prototype, here after NFKC and lower-casing, which already
 * fold fullwidth and mathematical letters) equals an existing one's. The prototypes below are
 * the entries of Unicode's confusables.txt that map onto the characters an email address
 * usually holds (Latin letters, digits, `.`, `-`, `_`, `@`): Cyrillic, Greek, Armenian and
 * Latin lookalikes. A skeleton is for comparison only, never shown or stored.
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

/** prototype → the characters confusables.txt maps onto it (lower case, after NFKC) */
const PROTOTYPES: Record<string, string> = {
  a: "аɑαа⍺",
  b: "Ƅьᖯ",
  c: "сϲᴄⅽ",
  d: "ԁⅾɗ",
  e: "еєҽ℮ҽ",
  g: "ɡցᶃ",
  h: "һհ",
  i: "іɩιӏ˛ⅰıɪ",
  j: "јϳ",
  k: "κк",
  l: "1|ǀⅼ׀ℓ",
  n: "ոп",
  o: "0оοօ௦ംଠ໐ဝ",
  p: "рρ⍴",
  q: "ԛզ",
  r: "гᴦ",
  s: "ѕꜱƽ",
  t: "τт",
  u: "υսʋ",
  v: "νѵᴠⅴ",
  w: "ԝɯѡ",
  x: "хχ×ⅹ",
  y: "уүγʏ",
  z: "ᴢ",
  "-": "‐‑‒–—﹘−˗",
  ".": "․‧·",
};
const TO_PROTOTYPE = new Map<string, string>();
for (const [prototype, lookalikes] of Object.entries(PROTOTYPES)) {
  for (const char of lookalikes) TO_PROTOTYPE.set(char, prototype);
}

/** The TR39-style skeleton: two emails with the same skeleton look the same. */
export function emailSkeleton(email: string): string {
  const folded = [...email.normalize("NFKC").toLowerCase().normalize("NFD")]
    .map((char) => TO_PROTOTYPE.get(char) ?? char)
    .join("")
    // `m` and `rn` are confusables.txt's classic pair; `vv` reads as `w`
    .replaceAll("rn", "m")
    .replaceAll("vv", "w");
  return folded.normalize("NFD");
}
