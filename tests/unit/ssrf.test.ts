import { describe, expect, test } from "bun:test";
import {
  assertSafeTarget,
  checkUrlShape,
  isPublicAddress,
  systemResolve,
  UnsafeUrlError,
} from "../../src/outbox/ssrf.ts";

/** The SSRF guard (docs/decisions.md §8): what is refused, what passes, and the private override. */
const refusedWhenNotAllowed = [
  "https://127.0.0.1/hook",
  "https://169.254.169.254/latest/meta-data/",
  "https://[::ffff:127.0.0.1]/hook",
  "https://0x7f000001/hook",
  "https://2130706433/hook",
  "https://0177.0.0.1/hook",
  "https://10.0.0.5/hook",
  "https://172.16.3.4/hook",
  "https://192.168.1.1/hook",
  "https://100.64.0.1/hook",
  "https://[fd00::1]/hook",
  "https://[fe80::1]/hook",
  "https://[::1]/hook",
  "https://0.0.0.0/hook",
  "https://localhost/hook",
  "https://api.localhost./hook",
  // deprecated IPv4-compatible IPv6 (::/96): the URL parser turns the first into the second
  "https://[::127.0.0.1]/hook",
  "https://[::7f00:1]/hook",
  "https://[::a00:5]/hook",
  "https://[::8.8.8.8]/hook",
  // other forms embedding an IPv4 address: NAT64 (well-known and local-use), 6to4, Teredo, SIIT
  "https://[64:ff9b::7f00:1]/hook",
  "https://[64:ff9b::808:808]/hook",
  "https://[64:ff9b:1::a00:1]/hook",
  "https://[2002:7f00:1::1]/hook",
  "https://[2002:808:808::1]/hook",
  "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
  "https://[::ffff:0:7f00:1]/hook",
];

describe("SSRF guard", () => {
  for (const url of refusedWhenNotAllowed) {
    test(`refuses ${url}`, async () => {
      expect(() => checkUrlShape(url, false)).toThrow(UnsafeUrlError);
      await expect(assertSafeTarget(url, false, async () => ["93.184.216.34"])).rejects.toThrow(
        /loopback, private, link-local/,
      );
    });
  }

  test("refuses plain http unless private targets are allowed", () => {
    expect(() => checkUrlShape("http://93.184.216.34/hook", false)).toThrow("Must be an https URL");
    expect(checkUrlShape("http://127.0.0.1:8080/hook", true).port).toBe("8080");
  });

  test("refuses other schemes and non-URLs even when private targets are allowed", () => {
    expect(() => checkUrlShape("ftp://example.com/x", true)).toThrow("Must be an https URL");
    expect(() => checkUrlShape("file:///etc/passwd", true)).toThrow("Must be an https URL");
    expect(() => checkUrlShape("not a url", true)).toThrow("Must be an absolute URL");
  });

  test("a hostname resolving to loopback (or any private address) is refused", async () => {
    await expect(
      assertSafeTarget("https://rebind.example/hook", false, async () => ["127.0.0.1"]),
    ).rejects.toThrow(UnsafeUrlError);
    // one private address among public ones is enough to refuse
    await expect(
      assertSafeTarget("https://mixed.example/hook", false, async () => [
        "93.184.216.34",
        "10.1.2.3",
      ]),
    ).rejects.toThrow(UnsafeUrlError);
    await expect(
      assertSafeTarget("https://v6.example/hook", false, async () => ["::ffff:169.254.169.254"]),
    ).rejects.toThrow(UnsafeUrlError);
  });

  test("the system resolver is what sends use: localhost resolves to loopback", async () => {
    const addresses = await systemResolve("localhost");
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.some(isPublicAddress)).toBe(false);
    for (const address of addresses) expect(["127.0.0.1", "::1"]).toContain(address);
  });

  test("an IPv4-mapped IPv6 address is judged by the IPv4 it carries", () => {
    expect(isPublicAddress("::ffff:93.184.216.34")).toBe(true);
    expect(isPublicAddress("::ffff:10.0.0.1")).toBe(false);
    expect(isPublicAddress("93.184.216.34")).toBe(true);
    expect(isPublicAddress("not an address")).toBe(false);
  });

  test("a public host passes; an unresolvable one is refused before a send, accepted at creation", async () => {
    const url = await assertSafeTarget("https://hooks.example/x", false, async () => [
      "93.184.216.34",
      "2606:2800:220:1:248:1893:25c8:1946",
    ]);
    expect(url.hostname).toBe("hooks.example");
    const nowhere = async () => {
      throw new Error("ENOTFOUND");
    };
    await expect(assertSafeTarget("https://nowhere.example/", false, nowhere)).rejects.toThrow(
      "does not resolve",
    );
    const accepted = await assertSafeTarget("https://nowhere.example/", false, nowhere, "accept");
    expect(accepted.hostname).toBe("nowhere.example");
  });

  test("ALLOW_PRIVATE_WEBHOOK_URLS lets every address through without resolving", async () => {
    for (const url of refusedWhenNotAllowed) {
      await expect(
        assertSafeTarget(url, true, async () => {
          throw new Error("must not resolve");
        }),
      ).resolves.toBeInstanceOf(URL);
    }
  });

  test("public unicast passes, special ranges do not", () => {
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("2606:4700::1111")).toBe(true);
    for (const a of ["127.0.0.1", "::1", "10.0.0.1", "100.64.1.1", "169.254.169.254", "fd00::1"]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    // NAT64 and 6to4 forms can embed private IPv4 addresses
    expect(isPublicAddress("64:ff9b::a9fe:a9fe")).toBe(false);
    expect(isPublicAddress("2002:7f00:1::")).toBe(false);
    expect(isPublicAddress("not-an-ip")).toBe(false);
  });
});
