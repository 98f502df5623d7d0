import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OrgitApp } from "../../src/app.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import {
  buildTestApp,
  type DriverName,
  describeEachDriver,
  factories,
  freshDatabase,
  send,
  TEST_ADMIN_TOKEN,
} from "../helpers/harness.ts";
import { ROOT, type ServiceProcess, startServiceProcess } from "../helpers/service-process.ts";

/**
 * HTTPS only (docs/decisions.md §9): TLS served directly by the Bun entry, and the REQUIRE_HTTPS
 * policy with and without a trusted proxy in front.
 */
const HSTS = "max-age=31536000; includeSubDomains";
const BUN = `${ROOT}node_modules/.bin/bun`;
const ADMIN_TOKEN = "https-operator-token-0123456789";
const START_TIMEOUT_MS = 60_000;
// the certificate is self-signed: this test checks our server, not the chain of trust
const insecure = { tls: { rejectUnauthorized: false } };

describe("HTTPS served directly by the Bun entry (TLS_CERT_FILE / TLS_KEY_FILE)", () => {
  let dir: string;
  let service: ServiceProcess;
  let base: string;

  const output = () => service.output();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "orgit-tls-"));
    const certFile = join(dir, "cert.pem");
    const keyFile = join(dir, "key.pem");
    const openssl = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-days",
        "1",
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (openssl.exitCode !== 0) {
      throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
    }

    service = await startServiceProcess({
      command: [BUN, "run", "src/index.ts"],
      adminToken: ADMIN_TOKEN,
      env: {
        TLS_CERT_FILE: certFile,
        TLS_KEY_FILE: keyFile,
        // as in production: HTTPS is both required and what the server speaks
        REQUIRE_HTTPS: "true",
        LOG_LEVEL: "warn",
      },
      scheme: "https",
      fetchInit: insecure,
      startTimeoutMs: START_TIMEOUT_MS,
      pollMs: 200,
      label: "bun",
    });
    base = service.base;
  }, START_TIMEOUT_MS + 20_000);

  afterAll(async () => {
    await service?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  test("every HTTPS response carries Strict-Transport-Security and X-Request-Id", async () => {
    const anonymous = await fetch(`${base}/api/v1/health`, insecure);
    expect(anonymous.status, output()).toBe(401);
    expect(anonymous.headers.get("strict-transport-security")).toBe(HSTS);
    expect(anonymous.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    const notFound = await fetch(`${base}/nowhere`, insecure);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("strict-transport-security")).toBe(HSTS);
    expect(notFound.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("with REQUIRE_HTTPS, the API works end to end over TLS", async () => {
    const { org, secret } = await service.provisionKey({
      organization: { name: "TLS Co" },
      user: { email: "tls@example.com", firstName: "Tess", lastName: "Ls" },
      key: { name: "tls key", scopes: ["equipment:read"], expiresIn: "NEVER" },
    });
    const response = await fetch(`${base}/api/v1/whoami`, {
      ...insecure,
      headers: { authorization: `Bearer ${secret}` },
    });
    const text = await response.text();
    expect(response.status, `${text}${output()}`).toBe(200);
    expect(JSON.parse(text).organization).toEqual({ id: org.id, name: "TLS Co" });
    expect(response.headers.get("strict-transport-security")).toBe(HSTS);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

function suite(driver: DriverName) {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let strict: OrgitApp;
  let relaxed: OrgitApp;
  let key: string;

  beforeAll(async () => {
    db = await freshDatabase(driver);
    // one key sends many requests within a second here: keep the burst limit out of the way
    const limits = { RATE_LIMIT_BURST_PER_SEC: "1000" };
    strict = await buildTestApp(db.database, {
      env: { ...limits, REQUIRE_HTTPS: "true", TRUST_PROXY: "10.0.0.1" },
    });
    relaxed = await buildTestApp(db.database, { env: limits });
    ({ key } = await factories(strict).member());
  });
  afterAll(async () => {
    await strict.stop();
    await relaxed.stop();
    await db.drop();
  });

  test("REQUIRE_HTTPS refuses a plain-HTTP request with 403 HTTPS required", async () => {
    const response = await send(strict, "/api/v1/whoami", { key, peer: "203.0.113.7" });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "HTTPS required" });
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  test("REQUIRE_HTTPS covers the operator API too, so the token never travels in clear", async () => {
    const response = await send(strict, "/graphql", {
      peer: "203.0.113.7",
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      body: { query: "{ __typename }" },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "HTTPS required" });
  });

  test("a trusted proxy reporting X-Forwarded-Proto: http is refused", async () => {
    const response = await send(strict, "/api/v1/whoami", {
      key,
      peer: "10.0.0.1",
      headers: { "x-forwarded-proto": "http", "x-forwarded-for": "198.51.100.4" },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "HTTPS required" });
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  test("a trusted proxy reporting X-Forwarded-Proto: https passes and gets HSTS", async () => {
    const response = await send(strict, "/api/v1/whoami", {
      key,
      peer: "10.0.0.1",
      headers: { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.4" },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).apiKey.name).toBe("test key");
    expect(response.headers.get("strict-transport-security")).toBe(HSTS);
  });

  test("the first X-Forwarded-Proto value counts (the proxy's own view of the client)", async () => {
    const response = await send(strict, "/api/v1/whoami", {
      key,
      peer: "10.0.0.1",
      headers: { "x-forwarded-proto": "HTTPS, http" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toBe(HSTS);
  });

  test("X-Forwarded-Proto from an untrusted peer is ignored: still 403", async () => {
    for (const peer of ["203.0.113.7", "10.0.0.2", "127.0.0.1"]) {
      const response = await send(strict, "/api/v1/whoami", {
        key,
        peer,
        headers: { "x-forwarded-proto": "https" },
      });
      expect(response.status, peer).toBe(403);
      expect(await response.json()).toEqual({ error: "HTTPS required" });
      expect(response.headers.get("strict-transport-security")).toBeNull();
    }
  });

  test("a request that arrived over TLS (https:// URL) is allowed and gets HSTS", async () => {
    const request = new Request("https://localhost/api/v1/whoami", {
      headers: { authorization: `Bearer ${key}` },
    });
    const response = await strict.handle(setPeerAddress(request, "203.0.113.7"));
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toBe(HSTS);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("an https:// request gets HSTS even when HTTPS is not required", async () => {
    const request = new Request("https://localhost/api/v1/health", {
      headers: { authorization: `Bearer ${key}` },
    });
    const response = await relaxed.handle(setPeerAddress(request, "127.0.0.1"));
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toBe(HSTS);
  });

  test("REQUIRE_HTTPS unset: plain HTTP is served, without an HSTS header", async () => {
    const response = await send(relaxed, "/api/v1/whoami", { key });
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toBeNull();
    // no proxy is trusted, so a forged header neither blocks nor upgrades the request
    const forged = await send(relaxed, "/api/v1/whoami", {
      key,
      headers: { "x-forwarded-proto": "https" },
    });
    expect(forged.status).toBe(200);
    expect(forged.headers.get("strict-transport-security")).toBeNull();
  });
}

describeEachDriver("REQUIRE_HTTPS and HSTS", suite);
