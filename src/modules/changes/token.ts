import { ApiError } from "../../errors.ts";
import { BEGINNING, type Position } from "./queries.ts";

/**
 * Sync tokens are opaque to callers: base64url of `c1.<xid>.<seq>`, the feed position after
 * which the next answer starts (docs/decisions.md §12). They carry no secret and
 * no organization: a position means the same in every organization, and each answer is
 * filtered by the caller's own organization and rights.
 */
const SHAPE = /^c1\.(\d{1,20})\.(\d{1,19})$/;
const U64_MAX = 18446744073709551615n;
const I64_MAX = 9223372036854775807n;

const toBase64Url = (text: string) =>
  btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
const fromBase64Url = (token: string) => {
  try {
    return atob(token.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return "";
  }
};

export function encodeToken(position: Position): string {
  return toBase64Url(`c1.${position.xid}.${position.seq}`);
}

/** The position a token names; a token that is not one of ours is a 400. */
export function decodeToken(token: string | null | undefined): Position {
  if (token === null || token === undefined) return BEGINNING;
  const match = /^[A-Za-z0-9_-]{1,64}$/.test(token) ? SHAPE.exec(fromBase64Url(token)) : null;
  if (!match || BigInt(match[1] as string) > U64_MAX || BigInt(match[2] as string) > I64_MAX) {
    throw new ApiError("VALIDATION_FAILED", "Validation failed", [
      { path: ["since"], message: "Not a sync token (use the `next` of an earlier answer)" },
    ]);
  }
  return { xid: BigInt(match[1] as string).toString(), seq: BigInt(match[2] as string).toString() };
}
