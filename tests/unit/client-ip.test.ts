import { expect, test } from "bun:test";
import { clientNetwork, createClientIpResolver } from "../../src/http/client-ip.ts";

test("without trusted proxies the socket peer is the client, whatever X-Forwarded-For says", () => {
  const resolver = createClientIpResolver([]);
  expect(resolver.resolve("203.0.113.9", "1.2.3.4")).toBe("203.0.113.9");
});

test("a trusted peer: walk X-Forwarded-For right to left, skip trusted hops", () => {
  const resolver = createClientIpResolver(["10.0.0.0/8", "192.168.1.1"]);
  expect(resolver.resolve("10.0.0.1", "198.51.100.7")).toBe("198.51.100.7");
  expect(resolver.resolve("10.0.0.1", "6.6.6.6, 198.51.100.7, 192.168.1.1, 10.2.3.4")).toBe(
    "198.51.100.7",
  );
  // the client's own spoofed entries to the left are never reached
  expect(resolver.resolve("10.0.0.1", "127.0.0.1, 198.51.100.7")).toBe("198.51.100.7");
});

test("an untrusted peer cannot spoof its address", () => {
  const resolver = createClientIpResolver(["10.0.0.0/8"]);
  expect(resolver.resolve("198.51.100.7", "10.0.0.5")).toBe("198.51.100.7");
});

test("IPv4-mapped IPv6 is normalised, for peers and hops alike", () => {
  const resolver = createClientIpResolver(["loopback"]);
  expect(resolver.resolve("::ffff:127.0.0.1", "::ffff:203.0.113.4")).toBe("203.0.113.4");
  expect(resolver.isTrusted("::1")).toBe(true);
  expect(resolver.isTrusted("::ffff:127.0.0.1")).toBe(true);
  expect(resolver.resolve("::ffff:198.51.100.2", null)).toBe("198.51.100.2");
});

test("all hops trusted → the leftmost; garbage stops the walk at the last vouched hop", () => {
  const resolver = createClientIpResolver(["10.0.0.0/8"]);
  expect(resolver.resolve("10.0.0.1", "10.0.0.9, 10.0.0.8")).toBe("10.0.0.9");
  expect(resolver.resolve("10.0.0.1", "198.51.100.7, not-an-ip, 10.0.0.8")).toBe("10.0.0.8");
  expect(resolver.resolve("10.0.0.1", "[2001:db8::5]")).toBe("2001:db8::5");
});

test("an IPv6 zone id in a trusted hop or the peer is dropped: the address stays usable", () => {
  const resolver = createClientIpResolver(["loopback"]);
  expect(resolver.resolve("127.0.0.1", "fe80::1%eth0")).toBe("fe80::1");
  expect(resolver.resolve("127.0.0.1", "[fe80::1%25eth0]")).toBe("fe80::1");
  expect(resolver.resolve("fe80::2%en0", null)).toBe("fe80::2");
  expect(resolver.resolve("::1%lo", "203.0.113.4")).toBe("203.0.113.4");
});

test("a peer that is not an address is passed through as it came; no peer stays unknown", () => {
  const resolver = createClientIpResolver(["loopback"]);
  expect(resolver.resolve("not-an-ip", "203.0.113.4")).toBe("not-an-ip");
  expect(resolver.resolve(undefined, "203.0.113.4")).toBeUndefined();
  // brackets only around the whole value: "1[::1]" and "[::1]1" are not addresses
  expect(resolver.resolve("1[::1]", null)).toBe("1[::1]");
  expect(resolver.resolve("[::1]1", null)).toBe("[::1]1");
  expect(resolver.resolve("[::1]", "203.0.113.4")).toBe("203.0.113.4");
});

test("isTrusted: trusted ranges only; nothing, garbage or another address is not trusted", () => {
  const resolver = createClientIpResolver(["10.0.0.0/8", "loopback"]);
  expect(resolver.isTrusted("10.1.2.3")).toBe(true);
  expect(resolver.isTrusted("127.0.0.1")).toBe(true);
  expect(resolver.isTrusted("203.0.113.1")).toBe(false);
  expect(resolver.isTrusted("2001:db8::1")).toBe(false);
  expect(resolver.isTrusted(undefined)).toBe(false);
  expect(resolver.isTrusted("")).toBe(false);
  expect(resolver.isTrusted("garbage")).toBe(false);
});

test("a single trusted address is that address alone, IPv4 (/32) and IPv6 (/128)", () => {
  const resolver = createClientIpResolver(["192.168.1.1", "2001:db8::1"]);
  expect(resolver.isTrusted("192.168.1.1")).toBe(true);
  expect(resolver.isTrusted("192.168.1.2")).toBe(false);
  expect(resolver.isTrusted("2001:db8::1")).toBe(true);
  expect(resolver.isTrusted("2001:db8::2")).toBe(false);
  expect(resolver.isTrusted("2001:db8:ffff::1")).toBe(false);
});

test("a TRUST_PROXY entry that is not an address or range is refused with its text", () => {
  expect(() => createClientIpResolver(["10.0.0.0/8", "proxy.internal"])).toThrow(
    "not an IP address: proxy.internal",
  );
});

test("clientNetwork: an IPv4 address as is, an IPv6 address by its /64", () => {
  expect(clientNetwork("198.51.100.7")).toBe("198.51.100.7");
  // taken as given, not parsed again: the resolver hands over canonical text already
  expect(clientNetwork("192.168.001.001")).toBe("192.168.001.001");
  expect(clientNetwork(undefined)).toBe("unknown");
  expect(clientNetwork("2001:db8:5:64:abcd:1:2:3")).toBe("2001:db8:5:64::/64");
  expect(clientNetwork("2001:0DB8:0005:0064::9"), "written another way").toBe("2001:db8:5:64::/64");
  expect(clientNetwork("2001:db8::1"), "zero groups spelled out").toBe("2001:db8:0:0::/64");
  expect(clientNetwork("[fe80::1%eth0]")).toBe("fe80:0:0:0::/64");
  expect(clientNetwork("ffff:ffff:ffff:ffff::")).toBe("ffff:ffff:ffff:ffff::/64");
});

test("clientNetwork: IPv4-mapped IPv6 is its IPv4 address; what does not parse is kept as it came", () => {
  expect(clientNetwork("::ffff:198.51.100.7")).toBe("198.51.100.7");
  expect(clientNetwork("::ffff:c633:6407")).toBe("198.51.100.7");
  expect(clientNetwork("not:an:address")).toBe("not:an:address");
  expect(clientNetwork("unknown")).toBe("unknown");
});
