import { type Static, Type as T } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/**
 * Every environment variable of docs/decisions.md §2, validated in one place. `loadConfig`
 * reports every problem at once, one line per variable, so an operator fixes them in one go.
 */
const Bool = T.Union([T.Literal("true"), T.Literal("false"), T.Literal("1"), T.Literal("0")]);
const PositiveInt = T.String({ pattern: "^[1-9][0-9]{0,8}$" });

const EnvSchema = T.Object({
  PORT: T.Optional(T.String({ pattern: "^[0-9]{1,5}$" })),
  HOST: T.Optional(T.String({ minLength: 1 })),
  DATABASE_URL: T.Optional(T.String({ pattern: "^postgres(ql)?://" })),
  DATABASE_READ_URLS: T.Optional(T.String()),
  REPLICA_MAX_LAG_MS: T.Optional(PositiveInt),
  DATABASE_POOLER: T.Optional(T.Union([T.Literal("pgbouncer"), T.Literal("none")])),
  DATABASE_DIRECT_URL: T.Optional(T.String({ pattern: "^postgres(ql)?://" })),
  DATA_DIR: T.Optional(T.String({ minLength: 1 })),
  ADMIN_TOKEN: T.Optional(T.String({ minLength: 16 })),
  PUBLIC_BASE_URL: T.Optional(T.String({ pattern: "^https?://[^/]+" })),
  TRUST_PROXY: T.Optional(T.String()),
  REQUIRE_HTTPS: T.Optional(Bool),
  TLS_CERT_FILE: T.Optional(T.String({ minLength: 1 })),
  TLS_KEY_FILE: T.Optional(T.String({ minLength: 1 })),
  RATE_LIMIT_IP_PER_MIN: T.Optional(PositiveInt),
  RATE_LIMIT_KEY_PER_MIN: T.Optional(PositiveInt),
  RATE_LIMIT_BURST_PER_SEC: T.Optional(PositiveInt),
  REDIS_URL: T.Optional(T.String({ pattern: "^rediss?://" })),
  ALLOW_PRIVATE_WEBHOOK_URLS: T.Optional(Bool),
  AUDIT_LOG: T.Optional(Bool),
  WEBHOOK_SECRET_KEY: T.Optional(T.String({ minLength: 32 })),
  WEBHOOK_SECRET_KEY_PREVIOUS: T.Optional(T.String({ minLength: 32 })),
  CORS_ORIGINS: T.Optional(T.String()),
  LOG_LEVEL: T.Optional(
    T.Union(["debug", "info", "warn", "error", "silent"].map((level) => T.Literal(level))),
  ),
  NODE_ENV: T.Optional(T.String()),
});

/** Every environment variable the service reads (deploy/ manifests are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.properties);

const HINTS: Record<string, string> = {
  PORT: "a port number 1-65535",
  DATABASE_URL: "a postgres:// or postgresql:// URL",
  REPLICA_MAX_LAG_MS: "a positive integer (milliseconds)",
  DATABASE_POOLER: "pgbouncer or none",
  DATABASE_DIRECT_URL: "a postgres:// or postgresql:// URL",
  ADMIN_TOKEN: "at least 16 characters",
  PUBLIC_BASE_URL: "an http(s) origin such as https://orgit.example.com",
  REQUIRE_HTTPS: "true or false",
  ALLOW_PRIVATE_WEBHOOK_URLS: "true or false",
  AUDIT_LOG: "true or false",
  WEBHOOK_SECRET_KEY: "at least 32 characters",
  WEBHOOK_SECRET_KEY_PREVIOUS: "at least 32 characters",
  RATE_LIMIT_IP_PER_MIN: "a positive integer",
  RATE_LIMIT_KEY_PER_MIN: "a positive integer",
  RATE_LIMIT_BURST_PER_SEC: "a positive integer",
  REDIS_URL: "a redis:// or rediss:// URL",
  LOG_LEVEL: "one of debug, info, warn, error, silent",
};

const SECRET = new Set([
  "ADMIN_TOKEN",
  "DATABASE_URL",
  "DATABASE_READ_URLS",
  "DATABASE_DIRECT_URL",
  "REDIS_URL",
  "WEBHOOK_SECRET_KEY",
  "WEBHOOK_SECRET_KEY_PREVIOUS",
]);

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  /** read replicas for reads that may lag (DATABASE_READ_URLS) */
  readUrls: string[];
  replicaMaxLagMs: number;
  /** DATABASE_URL is a transaction-mode PgBouncer; LISTEN and migrations use directUrl */
  pooler?: "pgbouncer";
  directUrl?: string;
  dataDir?: string;
  adminToken?: string;
  publicBaseUrl: string;
  trustProxy: string[];
  requireHttps: boolean;
  tls?: { certFile: string; keyFile: string };
  rateLimit: { ipPerMin: number; keyPerMin: number; burstPerSec: number };
  redisUrl?: string;
  allowPrivateWebhookUrls: boolean;
  /** record every authenticated request in the audit trail (docs/security.md); false only to
   * measure what recording costs (npm run bench:e2e -- --audit) */
  auditLog: boolean;
  /**
   * what webhook signing secrets are encrypted under at rest (docs/security.md); required in
   * production, a fixed development key otherwise when unset
   */
  webhookSecretKey?: string;
  /** the key before a rotation: opens what it sealed until all is sealed again (docs/operations.md) */
  webhookSecretKeyPrevious?: string;
  /** origins allowed to call /graphql from a browser (CORS), never with credentials */
  corsOrigins: string[];
  logLevel: LogLevel;
  production: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  }
}

const truthy = (v: string | undefined) => v === "true" || v === "1";

/** Reads the configuration from an environment map; throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const problems = new Map<string, string>();
  for (const error of Value.Errors(EnvSchema, raw)) {
    const name = error.path.slice(1);
    if (!problems.has(name)) {
      // never echo secrets (tokens, credentials inside URLs) into logs
      const got = SECRET.has(name) ? "" : ` (got "${raw[name]}")`;
      problems.set(name, `${name} must be ${HINTS[name] ?? "valid"}${got}`);
    }
  }
  const env_ = raw as Static<typeof EnvSchema>;
  const port = env_.PORT === undefined ? 3000 : Number(env_.PORT);
  if (!problems.has("PORT") && (port < 1 || port > 65535)) {
    problems.set("PORT", `PORT must be ${HINTS.PORT} (got "${env_.PORT}")`);
  }
  if (Boolean(env_.TLS_CERT_FILE) !== Boolean(env_.TLS_KEY_FILE)) {
    problems.set("TLS_CERT_FILE", "TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  }
  const trustProxy = commaList(env_.TRUST_PROXY);
  for (const entry of trustProxy) {
    if (entry !== "loopback" && !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry)) {
      problems.set(
        "TRUST_PROXY",
        `TRUST_PROXY has an entry that is not an IP, CIDR or "loopback": "${entry}"`,
      );
    }
  }
  const readUrls = databaseProblems(env_, problems);
  const corsOrigins = commaList(env_.CORS_ORIGINS);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      problems.set(
        "CORS_ORIGINS",
        `CORS_ORIGINS has an entry that is not an origin such as https://tools.example.com: "${origin}"`,
      );
    }
  }
  if (
    env_.NODE_ENV === "production" &&
    !env_.WEBHOOK_SECRET_KEY &&
    !problems.has("WEBHOOK_SECRET_KEY")
  ) {
    problems.set(
      "WEBHOOK_SECRET_KEY",
      "WEBHOOK_SECRET_KEY must be set in production (at least 32 characters, kept like a password): webhook signing secrets are encrypted under it",
    );
  }
  if (env_.WEBHOOK_SECRET_KEY_PREVIOUS && !env_.WEBHOOK_SECRET_KEY) {
    problems.set(
      "WEBHOOK_SECRET_KEY_PREVIOUS",
      "WEBHOOK_SECRET_KEY_PREVIOUS needs WEBHOOK_SECRET_KEY (the new key)",
    );
  }
  if (problems.size > 0) throw new ConfigError([...problems.values()]);

  const host = env_.HOST ?? "127.0.0.1";
  const production = env_.NODE_ENV === "production";
  const tls =
    env_.TLS_CERT_FILE && env_.TLS_KEY_FILE
      ? { certFile: env_.TLS_CERT_FILE, keyFile: env_.TLS_KEY_FILE }
      : undefined;
  return {
    port,
    host,
    databaseUrl: env_.DATABASE_URL,
    readUrls,
    replicaMaxLagMs: Number(env_.REPLICA_MAX_LAG_MS ?? 5000),
    pooler: env_.DATABASE_POOLER === "pgbouncer" ? "pgbouncer" : undefined,
    directUrl: env_.DATABASE_DIRECT_URL,
    dataDir: env_.DATA_DIR,
    adminToken: env_.ADMIN_TOKEN,
    publicBaseUrl: (env_.PUBLIC_BASE_URL ?? `${tls ? "https" : "http"}://${host}:${port}`).replace(
      /\/+$/,
      "",
    ),
    trustProxy,
    requireHttps: env_.REQUIRE_HTTPS === undefined ? production : truthy(env_.REQUIRE_HTTPS),
    tls,
    rateLimit: {
      ipPerMin: Number(env_.RATE_LIMIT_IP_PER_MIN ?? 60),
      keyPerMin: Number(env_.RATE_LIMIT_KEY_PER_MIN ?? 600),
      burstPerSec: Number(env_.RATE_LIMIT_BURST_PER_SEC ?? 10),
    },
    redisUrl: env_.REDIS_URL,
    allowPrivateWebhookUrls: truthy(env_.ALLOW_PRIVATE_WEBHOOK_URLS),
    auditLog: env_.AUDIT_LOG === undefined || truthy(env_.AUDIT_LOG),
    webhookSecretKey: env_.WEBHOOK_SECRET_KEY,
    webhookSecretKeyPrevious: env_.WEBHOOK_SECRET_KEY_PREVIOUS,
    corsOrigins,
    logLevel: (env_.LOG_LEVEL ?? "info") as LogLevel,
    production,
  };
}

const commaList = (value: string | undefined): string[] =>
  (value ?? "").split(",").flatMap((s) => (s.trim() ? [s.trim()] : []));

/** The replicas' and the pooler's variables, which only mean something beside DATABASE_URL. */
function databaseProblems(env: Static<typeof EnvSchema>, problems: Map<string, string>): string[] {
  const readUrls = commaList(env.DATABASE_READ_URLS);
  const bad = readUrls.findIndex((url) => !/^postgres(ql)?:\/\/[^/\s]+/.test(url));
  if (bad >= 0) {
    // which entry, never the URL: it may carry a password
    problems.set(
      "DATABASE_READ_URLS",
      `DATABASE_READ_URLS must be a comma-separated list of postgres:// URLs (entry ${bad + 1} is not)`,
    );
  } else if (readUrls.length > 0 && !env.DATABASE_URL) {
    problems.set("DATABASE_READ_URLS", "DATABASE_READ_URLS needs DATABASE_URL (the primary)");
  }
  if (env.DATABASE_POOLER === "pgbouncer" && !problems.has("DATABASE_DIRECT_URL")) {
    if (!env.DATABASE_URL) {
      problems.set("DATABASE_POOLER", "DATABASE_POOLER=pgbouncer needs DATABASE_URL (the pooler)");
    } else if (!env.DATABASE_DIRECT_URL) {
      problems.set(
        "DATABASE_DIRECT_URL",
        "DATABASE_DIRECT_URL must be set with DATABASE_POOLER=pgbouncer (a session straight to Postgres for LISTEN/NOTIFY and migrations)",
      );
    }
  }
  return readUrls;
}
