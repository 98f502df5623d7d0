import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

test("defaults follow docs/decisions.md §2", () => {
  const config = loadConfig({});
  expect(config).toMatchObject({
    port: 3000,
    host: "127.0.0.1",
    publicBaseUrl: "http://127.0.0.1:3000",
    trustProxy: [],
    requireHttps: false,
    rateLimit: { ipPerMin: 60, keyPerMin: 600, burstPerSec: 10 },
    allowPrivateWebhookUrls: false,
    auditLog: true,
    logLevel: "info",
  });
  expect(config.databaseUrl).toBeUndefined();
  expect(config.adminToken).toBeUndefined();
});

test("REQUIRE_HTTPS defaults to true in production and can be turned off", () => {
  const production = { NODE_ENV: "production", WEBHOOK_SECRET_KEY: "k".repeat(32) };
  expect(loadConfig(production).requireHttps).toBe(true);
  expect(loadConfig({ ...production, REQUIRE_HTTPS: "false" }).requireHttps).toBe(false);
  expect(loadConfig({ REQUIRE_HTTPS: "true" }).requireHttps).toBe(true);
});

test("every variable is read", () => {
  const config = loadConfig({
    PORT: "8443",
    HOST: "0.0.0.0",
    DATABASE_URL: "postgres://u@db:5432/orgit",
    DATA_DIR: "/var/lib/orgit",
    ADMIN_TOKEN: "0123456789abcdef",
    PUBLIC_BASE_URL: "https://orgit.example.com/",
    TRUST_PROXY: "loopback, 10.0.0.0/8",
    TLS_CERT_FILE: "/c.pem",
    TLS_KEY_FILE: "/k.pem",
    RATE_LIMIT_IP_PER_MIN: "5",
    RATE_LIMIT_KEY_PER_MIN: "50",
    RATE_LIMIT_BURST_PER_SEC: "2",
    REDIS_URL: "redis://127.0.0.1:6379",
    ALLOW_PRIVATE_WEBHOOK_URLS: "true",
    AUDIT_LOG: "false",
    LOG_LEVEL: "warn",
  });
  expect(config).toMatchObject({
    port: 8443,
    host: "0.0.0.0",
    databaseUrl: "postgres://u@db:5432/orgit",
    dataDir: "/var/lib/orgit",
    publicBaseUrl: "https://orgit.example.com",
    trustProxy: ["loopback", "10.0.0.0/8"],
    tls: { certFile: "/c.pem", keyFile: "/k.pem" },
    rateLimit: { ipPerMin: 5, keyPerMin: 50, burstPerSec: 2 },
    redisUrl: "redis://127.0.0.1:6379",
    allowPrivateWebhookUrls: true,
    auditLog: false,
    logLevel: "warn",
  });
});

test("every problem is reported at once, one line naming each variable", () => {
  let error: ConfigError | undefined;
  try {
    loadConfig({
      PORT: "99999",
      DATABASE_URL: "mysql://x",
      ADMIN_TOKEN: "short",
      RATE_LIMIT_IP_PER_MIN: "0",
      LOG_LEVEL: "loud",
      TLS_CERT_FILE: "/only-cert.pem",
      TRUST_PROXY: "not an ip",
    });
  } catch (e) {
    error = e as ConfigError;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const names = error?.problems.map((p) => p.split(" ")[0]);
  expect(names?.sort()).toEqual(
    [
      "ADMIN_TOKEN",
      "DATABASE_URL",
      "LOG_LEVEL",
      "PORT",
      "RATE_LIMIT_IP_PER_MIN",
      "TLS_CERT_FILE",
      "TRUST_PROXY",
    ].sort(),
  );
  expect(error?.message).toContain('PORT must be a port number 1-65535 (got "99999")');
  // secrets are named, never echoed
  expect(error?.message).toContain("ADMIN_TOKEN must be at least 16 characters");
  expect(error?.message).not.toContain("short");
  expect(error?.message).not.toContain("mysql://x");
});

test("production refuses to start without WEBHOOK_SECRET_KEY, naming it and never its value", () => {
  expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(
    "WEBHOOK_SECRET_KEY must be set in production",
  );
  expect(() => loadConfig({ WEBHOOK_SECRET_KEY: "short-secret-value" })).toThrow(
    /WEBHOOK_SECRET_KEY must be at least 32 characters$/m,
  );
  expect(loadConfig({}).webhookSecretKey, "development: a fixed key is used").toBeUndefined();
});

test("CORS_ORIGINS is a comma-separated list of origins", () => {
  expect(
    loadConfig({ CORS_ORIGINS: "https://a.example, http://localhost:5173" }).corsOrigins,
  ).toEqual(["https://a.example", "http://localhost:5173"]);
  expect(loadConfig({}).corsOrigins).toEqual([]);
  expect(() => loadConfig({ CORS_ORIGINS: "https://a.example/path" })).toThrow("CORS_ORIGINS");
});
