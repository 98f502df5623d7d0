import ipaddr from "ipaddr.js";

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an address, turning IPv4-mapped IPv6 (::ffff:1.2.3.4) into plain IPv4 and dropping any IPv6 zone id. */
export function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = value.trim().replace(/^\[(.*)\]$/, "$1");
  if (!ipaddr.isValid(trimmed)) return null;
  const address = ipaddr.parse(trimmed);
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
    // a zone id (`fe80::1%eth0`) names an interface of the machine that wrote it: meaningless
    // here, and not an address Postgres (the ingest allowlist) or the buckets should see
    if (v6.zoneId !== undefined) return new ipaddr.IPv6(v6.parts);
  }
  return address;
}

function parseRange(entry: string): Range[] {
  if (entry === "loopback") return [ipaddr.parseCIDR("127.0.0.0/8"), ipaddr.parseCIDR("::1/128")];
  if (entry.includes("/")) return [ipaddr.parseCIDR(entry)];
  const address = parseAddress(entry);
  if (!address) throw new Error(`not an IP address: ${entry}`);
  return [[address, address.kind() === "ipv4" ? 32 : 128]];
}

/**
 * The client as limits count it: an IPv4 address as is, an IPv6 address by its /64 (one
 * subscriber's network: a host picks any of its 2^64 addresses at will), "unknown" without an
 * address. IPv4-mapped IPv6 arrives as IPv4 already (`parseAddress`). The rate limits, the
 * failed-authentication throttle, IP blocks and the sign-in throttle all key on this.
 */
export function clientNetwork(address: string | undefined): string {
  if (address === undefined) return "unknown";
  if (!address.includes(":")) return address;
  const parsed = parseAddress(address);
  if (parsed === null) return address;
  if (parsed.kind() === "ipv4") return parsed.toString();
  const [a, b, c, d] = (parsed as ipaddr.IPv6).parts as [number, number, number, number];
  return `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}:${d.toString(16)}::/64`;
}

export interface ClientIpResolver {
  isTrusted(address: string | undefined): boolean;
  /**
   * The caller's IP: the socket peer, unless the peer is a trusted proxy; then walk
   * X-Forwarded-For right to left, skip trusted hops, and take the first untrusted address.
   */
  resolve(peer: string | undefined, forwardedFor: string | null): string | undefined;
}

/** The one resolver behind rate limits, HTTPS detection and the ingest allowlist. */
export function createClientIpResolver(trustProxy: readonly string[]): ClientIpResolver {
  const ranges = trustProxy.flatMap(parseRange);
  const trusted = (address: ipaddr.IPv4 | ipaddr.IPv6) =>
    ranges.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits));
  return {
    isTrusted(value) {
      const address = value ? parseAddress(value) : null;
      return address !== null && trusted(address);
    },
    resolve(peer, forwardedFor) {
      const peerAddr = peer ? parseAddress(peer) : null;
      if (!peerAddr) return peer;
      if (!trusted(peerAddr) || !forwardedFor) return peerAddr.toString();
      let current = peerAddr;
      const hops = forwardedFor.split(",");
      for (let i = hops.length - 1; i >= 0; i--) {
        const hop = parseAddress(hops[i] as string);
        // garbage in the chain: believe no further than the last hop a trusted proxy vouched for
        if (!hop) return current.toString();
        if (!trusted(hop)) return hop.toString();
        current = hop;
      }
      return current.toString();
    },
  };
}
