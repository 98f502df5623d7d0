import { expect, test } from "bun:test";
import { compileAllowlist, normalizeAllowlistEntry } from "../../src/auth/ip-allowlist.ts";

/** The stored form of allowlist entries and how a client address is matched (docs/decisions.md §18). */

test("entries are stored normalized: lower-case, compressed, a full-length prefix as the bare address", () => {
  expect(normalizeAllowlistEntry(" 203.0.113.7 ")).toBe("203.0.113.7");
  expect(normalizeAllowlistEntry("2001:DB8:0:0::1")).toBe("2001:db8::1");
  expect(normalizeAllowlistEntry("2001:DB8:0::/32")).toBe("2001:db8::/32");
  expect(normalizeAllowlistEntry("203.0.113.7/32")).toBe("203.0.113.7");
  expect(normalizeAllowlistEntry("2001:db8::1/128")).toBe("2001:db8::1");
  expect(normalizeAllowlistEntry("0.0.0.0/0")).toBe("0.0.0.0/0");
  expect(normalizeAllowlistEntry("::ffff:192.0.2.1")).toBe("192.0.2.1");
  expect(normalizeAllowlistEntry("fe80::1%eth0")).toBe("fe80::1");
});

test("a network with host bits set, a prefix too long, or anything else is refused", () => {
  for (const bad of [
    "10.1.2.3/8",
    "203.0.113.0/33",
    "2001:db8::/129",
    "2001:db8::1/64",
    "1.2.3.4/",
    "1.2.3.4/a",
    "/24",
    "256.1.1.1",
    "1.2.3",
    "example.com",
    "",
  ]) {
    expect(normalizeAllowlistEntry(bad), bad).toBeNull();
  }
});

test("an empty list allows any address; otherwise only members of an entry, per address family", () => {
  expect(compileAllowlist([])).toBeUndefined();
  const allows = compileAllowlist(["203.0.113.0/24", "2001:db8::/32", "198.51.100.7"]);
  expect(allows?.("203.0.113.255")).toBe(true);
  expect(allows?.("203.0.114.0")).toBe(false);
  expect(allows?.("198.51.100.7")).toBe(true);
  expect(allows?.("198.51.100.8")).toBe(false);
  expect(allows?.("2001:db8:ffff::1")).toBe(true);
  expect(allows?.("2001:db9::1")).toBe(false);
  expect(allows?.("::ffff:203.0.113.9"), "IPv4-mapped IPv6 is compared as IPv4").toBe(true);
  expect(allows?.("not an address")).toBe(false);
});
