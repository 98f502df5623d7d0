const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;
const WHITESPACE = /\s/;

/** The token of an `Authorization: Bearer <token>` header; undefined for any other shape. */
export function bearerToken(header: string | null): string | undefined {
  if (header === null) return undefined;
  // the usual shape, "Bearer " and a token with no space in it, without a match array
  if (header.startsWith("Bearer ") && header.length > 7) {
    const token = header.slice(7);
    if (!WHITESPACE.test(token)) return token;
  }
  return header.match(BEARER)?.[1];
}
