import { expect, test } from "bun:test";
import {
  type DriverName,
  describeEachDriver,
  graphql,
  send,
  useTestApp,
} from "../helpers/harness.ts";
import { CREATE_KEY } from "../helpers/operator-ops.ts";
import { operator, SET_IPS } from "./ops.ts";

const REFUSED = { error: "IP address not allowed for this API key" };

/**
 * Per-key IP allowlists (docs/security.md), behind a trusted proxy (TRUST_PROXY=loopback): the
 * client address is the proxy-aware one of http/client-ip.ts, read from X-Forwarded-For.
 */
function suite(driver: DriverName) {
  const { app, make } = useTestApp(driver, { env: { TRUST_PROXY: "loopback" } });

  /** A request as the trusted proxy on 127.0.0.1 forwards it for `client`. */
  const via = (key: string, client: string, path = "/api/v1/whoami") =>
    send(app, path, { key, headers: { "x-forwarded-for": client } });

  async function keyAllowing(ips: string[]) {
    const member = await make.member();
    const { error } = await operator(app, SET_IPS, { id: member.apiKey.id, ips });
    expect(error).toBeUndefined();
    return member.key;
  }

  test("an IPv4 address and an IPv4 network: inside answers, outside is refused with 403", async () => {
    const key = await keyAllowing(["198.51.100.7", "203.0.113.0/24"]);
    expect((await via(key, "198.51.100.7")).status).toBe(200);
    expect((await via(key, "203.0.113.200")).status).toBe(200);
    for (const outside of ["198.51.100.8", "203.0.114.1", "10.0.0.1"]) {
      const refused = await via(key, outside);
      expect(refused.status, outside).toBe(403);
      const text = await refused.text();
      expect(JSON.parse(text)).toEqual(REFUSED);
      expect(text, "the address is not echoed").not.toContain(outside);
    }
  });

  test("an IPv6 address and an IPv6 network, compared in any spelling", async () => {
    const key = await keyAllowing(["2001:db8::1", "2001:db8:aaaa::/48"]);
    expect((await via(key, "2001:0db8:0000::0001")).status).toBe(200);
    expect((await via(key, "2001:db8:aaaa:1234::9")).status).toBe(200);
    expect((await via(key, "2001:db8:aaab::1")).status).toBe(403);
    expect((await via(key, "2001:db8::2")).status).toBe(403);
  });

  test("an IPv4-mapped IPv6 client matches its IPv4 entry; an IPv4 list refuses IPv6 clients", async () => {
    const key = await keyAllowing(["192.0.2.0/24"]);
    expect((await via(key, "::ffff:192.0.2.10")).status).toBe(200);
    expect((await via(key, "2001:db8::1")).status).toBe(403);
  });

  test("X-Forwarded-For is believed only from a trusted proxy: a direct caller cannot claim an address", async () => {
    const key = await keyAllowing(["203.0.113.0/24"]);
    const spoofed = await send(app, "/api/v1/whoami", {
      key,
      peer: "198.51.100.1",
      headers: { "x-forwarded-for": "203.0.113.5" },
    });
    expect(spoofed.status).toBe(403);
    // through the proxy, the rightmost untrusted hop is the client
    expect((await via(key, "203.0.113.5, 198.51.100.1")).status).toBe(403);
    expect((await via(key, "198.51.100.1, 203.0.113.5")).status).toBe(200);
  });

  test("the allowlist holds on /graphql and every REST route, not only whoami", async () => {
    const key = await keyAllowing(["203.0.113.0/24"]);
    expect((await via(key, "198.51.100.1", "/api/v1/equipments")).status).toBe(403);
    expect((await via(key, "198.51.100.1", "/api/projects")).status).toBe(403);
    const gql = await send(app, "/graphql", {
      key,
      headers: { "x-forwarded-for": "198.51.100.1" },
      body: { query: "{ __typename }" },
    });
    expect(gql.status).toBe(403);
    expect(await gql.json()).toEqual(REFUSED);
  });

  test("an empty allowlist means any address; emptying it lifts the restriction at once", async () => {
    const member = await make.member();
    expect((await via(member.key, "198.51.100.1")).status).toBe(200);
    await operator(app, SET_IPS, { id: member.apiKey.id, ips: ["203.0.113.0/24"] });
    expect((await via(member.key, "198.51.100.1")).status).toBe(403);
    const { data } = await operator(app, SET_IPS, { id: member.apiKey.id, ips: [] });
    expect(data.setApiKeyAllowedIps.allowedIps).toEqual([]);
    expect((await via(member.key, "198.51.100.1")).status).toBe(200);
  });

  test("an allowlist set at creation is in force from the first request, stored normalized", async () => {
    const member = await make.member();
    const { json } = await graphql(app, "test-operator-token-0123456789", CREATE_KEY, {
      input: {
        organizationId: member.organizationId,
        userId: member.user.id,
        name: "restricted",
        scopes: ["equipment:read"],
        expiresIn: "DAYS_30",
        allowedIps: ["2001:DB8:0::/32", "203.0.113.9", "203.0.113.9"],
      },
    });
    const secret = json.data.createApiKey.secret as string;
    expect((await via(secret, "203.0.113.9")).status).toBe(200);
    expect((await via(secret, "203.0.113.10")).status).toBe(403);
    const { data } = await operator(app, SET_IPS, {
      id: json.data.createApiKey.apiKey.id,
      ips: ["2001:DB8:0::/32", "203.0.113.9", "203.0.113.9"],
    });
    expect(data.setApiKeyAllowedIps.allowedIps).toEqual(["2001:db8::/32", "203.0.113.9"]);
  });
}

describeEachDriver("API key IP allowlists", suite);
