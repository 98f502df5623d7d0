import { randomBase62, timingSafeEqualStrings } from "../auth/keys.ts";
import { SESSION_COOKIE, type SessionMember, sessionCsrfToken } from "../auth/sessions.ts";
import { requestMeta } from "../http/request-context.ts";
import type { Services } from "../services.ts";

/** Cookie, CSRF and Origin handling shared by the pages. */
export const CSRF_COOKIE = "orgit_csrf";

const isSecure = (request: Request) => requestMeta(request)?.secure ?? false;

/**
 * Over HTTPS every cookie is named `__Host-<name>`: the browser then only accepts it Secure,
 * for Path=/ and without Domain, so a sibling subdomain cannot plant one (OWASP Session
 * Management). The unprefixed name is only read over plain HTTP (local development).
 */
const cookieName = (request: Request, name: string) =>
  isSecure(request) ? `__Host-${name}` : name;

export function readCookie(request: Request, name: string): string | undefined {
  const wanted = cookieName(request, name);
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === wanted) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly, SameSite=Lax, Secure over HTTPS; no Max-Age: gone when the browser closes. Over
 * HTTPS the path is always `/`, as the `__Host-` prefix requires; `path` narrows it over plain
 * HTTP only.
 */
export function cookie(
  request: Request,
  name: string,
  value: string,
  options: { path?: string; maxAge?: number } = {},
): string {
  const secure = isSecure(request);
  const path = secure ? "/" : (options.path ?? "/");
  const parts = [
    `${cookieName(request, name)}=${value}`,
    `Path=${path}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (secure) parts.push("Secure");
  return parts.join("; ");
}

export const clearCookie = (request: Request, name: string, path = "/") =>
  cookie(request, name, "", { path, maxAge: 0 });

/**
 * A POST from another site is refused: its Origin, when the browser sends one, must be the
 * service's own (PUBLIC_BASE_URL, or the origin the request was addressed to).
 */
export function originAllowed(request: Request, publicBaseUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  return origin === new URL(publicBaseUrl).origin || origin === new URL(request.url).origin;
}

/**
 * The CSRF token of a browser without a session (sign-in, invitation): a random value in an
 * HttpOnly cookie, repeated in the form (double submit). Another site can neither read nor set
 * the cookie, so it cannot forge the field. Returns the token and the cookie to set, if new.
 */
export function preSessionCsrf(request: Request): { token: string; setCookie?: string } {
  const existing = readCookie(request, CSRF_COOKIE);
  if (existing && /^[0-9A-Za-z]{32}$/.test(existing)) return { token: existing };
  const token = randomBase62(32);
  return { token, setCookie: cookie(request, CSRF_COOKIE, token) };
}

export function preSessionCsrfValid(request: Request, field: unknown): boolean {
  const expected = readCookie(request, CSRF_COOKIE);
  return typeof field === "string" && !!expected && timingSafeEqualStrings(field, expected);
}

export interface SignedIn {
  member: SessionMember;
  /** the cookie value, needed to derive the CSRF token and the flash key */
  token: string;
  csrf: string;
}

/**
 * The signed-in member, or null. A session that may only add a passkey (docs/decisions.md §12)
 * counts as signed out everywhere but where the page says `enrollOnly: "allowed"`, so a new
 * page refuses it by default.
 */
export async function signedIn(
  services: Pick<Services, "sessions">,
  request: Request,
  options: { enrollOnly?: "allowed" } = {},
): Promise<SignedIn | null> {
  const token = readCookie(request, SESSION_COOKIE);
  const member = await services.sessions.resolve(token);
  if (!member || !token) return null;
  if (member.enrollOnly && options.enrollOnly !== "allowed") return null;
  return { member, token, csrf: sessionCsrfToken(token) };
}

export const sessionCsrfValid = (session: SignedIn, field: unknown) =>
  typeof field === "string" && timingSafeEqualStrings(field, session.csrf);

/** A form field as one string (a repeated field keeps its first value). */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | null)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first : "";
}

/** A form field that may repeat (checkboxes) as a list of strings. */
export function fields(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | null)?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === "string");
}

/** The client as throttles count it: its IPv4 address or its IPv6 /64 (http/client-ip.ts). */
export const clientNetworkOf = (request: Request) => requestMeta(request)?.client ?? "unknown";

/** The client's own address (proxy-aware, src/http/client-ip.ts), as the audit trail records it. */
export const clientIpOf = (request: Request) => requestMeta(request)?.clientIp ?? null;
