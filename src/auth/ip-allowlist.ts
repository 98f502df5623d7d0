import ipaddr from "ipaddr.js";

/** At most this many entries per key (docs/decisions.md §18). */
export const MAX_ALLOWED_IPS = 50;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address as the allowlist compares it: IPv4-mapped IPv6 becomes IPv4, a zone id is dropped. */
function address(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = text.trim().replace(/^\[(.*)\]$/, "$1");
  // only dotted quads: ipaddr.js also reads inet_aton's shorthands (`1.2.3` is 1.2.0.3)
  if (!trimmed.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return null;
  if (!ipaddr.isValid(trimmed)) return null;
  const parsed = ipaddr.parse(trimmed);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    if (v6.zoneId !== undefined) return new ipaddr.IPv6(v6.parts);
  }
  return parsed;
}

/**
 * One allowlist entry in its stored form: a bare address (`203.0.113.7`, `2001:db8::1`) or a
 * network with its host bits cleared (`203.0.113.0/24`, `2001:db8::/32`); null when invalid.
 * A network written with host bits set (`10.1.2.3/8`) is refused, not silently widened: the
 * writer probably meant something else.
 */
export function normalizeAllowlistEntry(entry: string): string | null {
  const text = entry.trim();
  if (!text.includes("/")) return address(text)?.toString() ?? null;
  const [host = "", bitsText = ""] = text.split("/");
  const base = address(host);
  if (!base || !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  const max = base.kind() === "ipv4" ? 32 : 128;
  if (bits > max) return null;
  const network =
    base.kind() === "ipv4"
      ? ipaddr.IPv4.networkAddressFromCIDR(`${base}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${base}/${bits}`);
  if (network.toString() !== base.toString()) return null;
  return bits === max ? base.toString() : `${base}/${bits}`;
}

function toRange(entry: string): Range | null {
  if (entry.includes("/")) {
    const [host = "", bits = ""] = entry.split("/");
    const base = address(host);
    return base ? [base, Number(bits)] : null;
  }
  const base = address(entry);
  return base ? [base, base.kind() === "ipv4" ? 32 : 128] : null;
}

/** A matcher over stored entries; `undefined` when the list is empty (any address). */
export function compileAllowlist(
  entries: readonly string[],
): ((ip: string) => boolean) | undefined {
  if (entries.length === 0) return undefined;
  const ranges = entries.map(toRange).filter((r): r is Range => r !== null);
  return (ip) => {
    const client = address(ip);
    if (!client) return false;
    return ranges.some(([net, bits]) => net.kind() === client.kind() && client.match(net, bits));
  };
}
