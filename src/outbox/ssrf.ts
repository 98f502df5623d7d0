import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/**
 * SSRF guard for webhook targets (docs/decisions.md §8). A receiver URL must be https and every
 * address it resolves to must be public unicast; `allowPrivate` (ALLOW_PRIVATE_WEBHOOK_URLS)
 * lifts both rules for tests and on-premises receivers. Checked when a subscription is saved
 * and again, after DNS resolution, before every send.
 */

/** Resolves a host name to every address it has (injectable so tests need no real DNS). */
export type Resolve = (hostname: string) => Promise<string[]>;

export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export class UnsafeUrlError extends Error {}

/**
 * IPv6 prefixes ipaddr.js calls plain "unicast" although their low 32 bits are an IPv4 address
 * that some stacks still route to: the deprecated IPv4-compatible form (`::a.b.c.d`, RFC 4291
 * 2.5.5.1 — `[::127.0.0.1]` and `[::7f00:1]` reach loopback on some hosts). No public
 * receiver lives there, so the whole prefix is refused rather than judged by the IPv4 inside.
 */
const EMBEDDED_IPV4_PREFIXES = [ipaddr.parseCIDR("::/96")];

/**
 * Only public unicast passes. ipaddr.js names every special range (loopback, private,
 * linkLocal — which holds the 169.254.169.254 metadata address —, carrierGradeNat,
 * uniqueLocal, unspecified, multicast, reserved, and the forms that embed an IPv4 address:
 * NAT64 64:ff9b::/96 and 64:ff9b:1::/48 ("rfc6052"), 6to4 2002::/16, Teredo 2001::/32,
 * SIIT ::ffff:0:0:0/96 ("rfc6145")), so anything other than "unicast" is refused: a
 * translator could carry the request to whatever IPv4 is embedded, private included. Only
 * IPv4-mapped addresses (::ffff:a.b.c.d) are judged by the IPv4 they carry, which is what the
 * socket would really reach.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (EMBEDDED_IPV4_PREFIXES.some((cidr) => v6.match(cidr))) return false;
  }
  return parsed.range() === "unicast";
}

/** The URL's host as an address when it is a literal, without IPv6 brackets. */
function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith("[") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}

/**
 * Checks what can be checked without DNS: a parseable http(s) URL, https unless private targets
 * are allowed, and an IP-literal host that is public. The WHATWG URL parser already rewrites
 * numeric forms (`0x7f000001`, `2130706433`, `0177.0.0.1`) to dotted IPv4, so they are caught
 * here too. Returns the parsed URL or throws UnsafeUrlError with a message for the caller.
 */
export function checkUrlShape(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError("Must be an absolute URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new UnsafeUrlError("Must be an https URL");
  }
  if (allowPrivate) return url;
  if (url.protocol !== "https:") throw new UnsafeUrlError("Must be an https URL");
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) throw privateTarget();
  const literal = literalAddress(host);
  if (literal && !isPublicAddress(literal)) throw privateTarget();
  return url;
}

/**
 * The full check: the shape, then every address the host resolves to. Before a send, a host
 * that does not resolve is an error (nothing to send to); at creation it is accepted
 * (`unresolvable: "accept"`), since DNS may not exist yet and every send checks again.
 */
export async function assertSafeTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
  unresolvable: "refuse" | "accept" = "refuse",
): Promise<URL> {
  const url = checkUrlShape(raw, allowPrivate);
  if (allowPrivate || literalAddress(url.hostname)) return url;
  let addresses: string[] = [];
  try {
    addresses = await resolve(url.hostname);
  } catch {
    // handled below like an empty answer
  }
  if (addresses.length === 0) {
    if (unresolvable === "accept") return url;
    throw new UnsafeUrlError(`Host ${url.hostname} does not resolve`);
  }
  if (!addresses.every(isPublicAddress)) throw privateTarget();
  return url;
}

const privateTarget = () =>
  new UnsafeUrlError(
    "Must not point to a loopback, private, link-local, CGNAT, unique-local or metadata address",
  );
