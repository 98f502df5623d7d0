import { afterAll, beforeAll, describe } from "bun:test";
import postgres from "postgres";
import { type AppOptions, createApp, type OrgitApp } from "../../src/app.ts";
import type { Plan, Seat } from "../../src/auth/permissions.ts";
import { loadConfig } from "../../src/config.ts";
import { createDatabase, type Database } from "../../src/db/client.ts";
import { setPeerAddress } from "../../src/http/peer.ts";
import { createLogger } from "../../src/logger.ts";
import type { KeyExpiration } from "../../src/modules/operator/api-keys.ts";
import { migratedPglite, migrationsDigest } from "./pglite-snapshot.ts";
import { watchedTeardown } from "./teardown-watch.ts";

export type DriverName = "pglite" | "postgres";

/**
 * PGlite always; the machine's Postgres too when TEST_DATABASE_URL is set (as .ci/run does).
 * TEST_DRIVERS=postgres keeps only the latter (`npm run test:pgbouncer`: PGlite variants never
 * reach the pooler, and `npm test` has just run them).
 */
export function driverNames(): DriverName[] {
  const all: DriverName[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
  const only = process.env.TEST_DRIVERS?.split(",").map((name) => name.trim());
  return only ? all.filter((name) => only.includes(name)) : all;
}

/**
 * A database migrated once per set of migrations and day on TEST_DATABASE_URL's server, that
 * each suite's database is copied from (CREATE DATABASE … TEMPLATE: a file copy, not 21
 * migrations). Built under an advisory lock, then renamed into place, so a half-built template
 * is never copied.
 */
async function migratedTemplate(admin: postgres.Sql, base: string): Promise<string> {
  const name = `orgit_template_${migrationsDigest()}`;
  const ready = async () =>
    (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
  if (await ready()) return name;
  await admin`select pg_advisory_lock(hashtext(${name}))`;
  try {
    if (await ready()) return name;
    const building = `${name}_building`;
    await admin.unsafe(`drop database if exists ${building} with (force)`);
    await admin.unsafe(`create database ${building}`);
    const url = new URL(base);
    url.pathname = `/${building}`;
    // straight to Postgres, even under a pooler: no pooled session may stay on the template
    const database = await createDatabase({ databaseUrl: url.toString(), poolSize: 1 });
    await database.close();
    await admin.unsafe(`alter database ${building} rename to ${name}`);
    return name;
  } finally {
    await admin`select pg_advisory_unlock(hashtext(${name}))`;
  }
}

/** A fresh, empty, migrated database: in-memory PGlite, or a new database on TEST_DATABASE_URL. */
export async function freshDatabase(driver: DriverName): Promise<{
  database: Database;
  /** set for the postgres driver: the URL of this test's own database */
  databaseUrl?: string;
  /**
   * set for the postgres driver: DATABASE_URL (and the pooler's settings under
   * TEST_DATABASE_POOLER_URL) for a service process of the suite's own on this database
   */
  serviceEnv?: Record<string, string>;
  /** a second handle on the same data, as another instance would have (4 connections) */
  openAnother(options?: { poolSize?: number }): Promise<Database>;
  drop(): Promise<void>;
}> {
  if (driver === "pglite") return migratedPglite();
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `orgit_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${await migratedTemplate(admin, base)}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const open = (poolSize = 4) => createDatabase({ ...pooled(url), poolSize });
  const database = await open();
  const others: Database[] = [];
  return {
    database,
    databaseUrl: url.toString(),
    serviceEnv: serviceDatabaseEnv(url.toString()),
    async openAnother(options) {
      const other = await open(options?.poolSize);
      others.push(other);
      return other;
    },
    async drop() {
      for (const other of others) await other.close();
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * With TEST_DATABASE_POOLER_URL (a PgBouncer in transaction mode whose `*` entry points at
 * TEST_DATABASE_URL's server), the suites run through it as `DATABASE_POOLER=pgbouncer` would
 * (docs/operations.md, PgBouncer); the direct URL stays the test database's own.
 */
function pooled(direct: URL) {
  const pooler = process.env.TEST_DATABASE_POOLER_URL;
  if (!pooler) return { databaseUrl: direct.toString() };
  const url = new URL(pooler);
  url.pathname = direct.pathname;
  return {
    databaseUrl: url.toString(),
    pooler: "pgbouncer" as const,
    directUrl: direct.toString(),
  };
}

/**
 * The environment a service process is started with on the database at `direct`: through
 * TEST_DATABASE_POOLER_URL as `DATABASE_POOLER=pgbouncer` when it is set (`npm run
 * test:pgbouncer`), straight to the database otherwise.
 */
export function serviceDatabaseEnv(direct: string): Record<string, string> {
  const { databaseUrl, pooler, directUrl } = pooled(new URL(direct));
  if (!pooler) return { DATABASE_URL: databaseUrl };
  return { DATABASE_URL: databaseUrl, DATABASE_POOLER: pooler, DATABASE_DIRECT_URL: directUrl };
}

export const TEST_ADMIN_TOKEN = "test-operator-token-0123456789";

export interface TestAppOptions {
  env?: Record<string, string>;
  now?: () => Date;
  database?: Database;
  /** collects log lines instead of printing them */
  logs?: Record<string, unknown>[];
  /** shared rate-limit buckets in Redis, under a key prefix of the test's own */
  redis?: AppOptions["redis"];
  redisPrefix?: string;
  /** with `redis`: live updates and stream slots in Redis too (a connection for SUBSCRIBE) */
  redisSubscriber?: AppOptions["redisSubscriber"];
  /** how long a dead instance's stream slots last */
  liveSlotTimes?: AppOptions["liveSlotTimes"];
  /**
   * quota write/read interval; 0 by default, so no timer adds queries while a test counts
   * them (the quota is still synced on demand and at stop)
   */
  quotaSyncMs?: number;
  /** DNS of the webhook URL check at subscription time (AppOptions.resolveHost) */
  resolveHost?: AppOptions["resolveHost"];
  /**
   * webhook dispatcher settings (fast retries, fake DNS). Unset: no dispatcher, so its poll
   * queries and sends stay out of suites that do not test delivery.
   */
  webhooks?: AppOptions["webhooks"];
  /** audit trail: unset, rows are written on `flush()` and at stop (its upkeep is a job) */
  audit?: AppOptions["audit"];
  /** start the features' periodic jobs (retention runs, expiry warnings); off by default */
  backgroundJobs?: boolean;
  /**
   * scrypt's parameters for new password hashes: `TEST_SCRYPT` when absent; given as
   * `undefined`, the service's own (OWASP's)
   */
  passwordHashing?: AppOptions["passwordHashing"];
}

/**
 * Password hashes in tests: scrypt with N = 2^10 instead of OWASP's 2^17, 1 MiB and about a
 * millisecond a hash instead of 128 MiB and most of a second. Hundreds of sign-ins and
 * invitations hash passwords, and every hash records its own parameters, so everything else
 * is the same code; a suite that checks the production parameters passes
 * `passwordHashing: undefined` and gets createApp's own (docs/testing.md).
 */
export const TEST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

/** Rate limits out of the way unless a suite sets its own (tests send many requests per second). */
const ROOMY_LIMITS = {
  RATE_LIMIT_IP_PER_MIN: "100000000",
  RATE_LIMIT_KEY_PER_MIN: "100000000",
  RATE_LIMIT_BURST_PER_SEC: "100000000",
};

export function testConfig(env: Record<string, string> = {}) {
  return loadConfig({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: "info", ...ROOMY_LIMITS, ...env });
}

/** Builds the real app over a database, with log lines captured in memory. */
export async function buildTestApp(database: Database, options: TestAppOptions = {}) {
  const config = testConfig(options.env);
  const logs = options.logs ?? [];
  const logger = createLogger(config.logLevel, (line) => logs.push(JSON.parse(line)));
  return createApp({
    config,
    database,
    logger,
    now: options.now,
    webhooks: options.webhooks ?? false,
    redis: options.redis,
    redisPrefix: options.redisPrefix,
    redisSubscriber: options.redisSubscriber,
    liveSlotTimes: options.liveSlotTimes,
    quotaSyncMs: options.quotaSyncMs ?? 0,
    resolveHost: options.resolveHost,
    // no retention or audit upkeep timer adding queries: tests run them (changeRetention.run())
    backgroundJobs: options.backgroundJobs ?? false,
    audit: options.audit ?? { flushMs: 0, flushAtRequests: 0 },
    passwordHashing: "passwordHashing" in options ? options.passwordHashing : TEST_SCRYPT,
  });
}

export interface RequestOptions {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** the socket peer the entry point would have recorded; 127.0.0.1 by default */
  peer?: string;
}

/** Sends a request through the app's fetch handler, as Bun.serve would. */
export function send(app: OrgitApp, path: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const request = new Request(`http://localhost${path}`, {
    method: options.method ?? (body ? "POST" : "GET"),
    headers,
    body,
  });
  return app.handle(setPeerAddress(request, options.peer ?? "127.0.0.1"));
}

/** A GraphQL request to /graphql with a bearer token (API key or operator token). */
export async function graphql(
  app: OrgitApp,
  token: string | undefined,
  query: string,
  variables?: Record<string, unknown>,
) {
  const response = await send(app, "/graphql", {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: { query, variables },
  });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary GraphQL result shapes
  const json = (await response.json()) as { data?: any; errors?: any[]; error?: string };
  return { response, json };
}

/** Factories over the operator service, for arranging tests quickly. */
export function factories(app: OrgitApp) {
  const operator = app.services.operator;
  let counter = 0;
  return {
    async organization(input: { name?: string; plan?: Plan; dailyQuota?: number } = {}) {
      return operator.createOrganization({ name: input.name ?? `Org ${++counter}`, ...input });
    },
    async user(input: { email?: string; firstName?: string; lastName?: string } = {}) {
      const n = ++counter;
      return operator.createUser({
        email: input.email ?? `user${n}-${crypto.randomUUID().slice(0, 8)}@example.com`,
        firstName: input.firstName ?? `First${n}`,
        lastName: input.lastName ?? `Last${n}`,
      });
    },
    role(organizationId: string, name: string, seat: Seat, permissions: string[]) {
      return operator.createRole({ organizationId, name, seat, permissions });
    },
    /** an organization with one member of `role` and a key with `scopes` */
    async member(
      options: {
        plan?: Plan;
        role?: string;
        scopes?: string[];
        expiresIn?: KeyExpiration;
        expiresAt?: Date;
        organizationId?: string;
      } = {},
    ) {
      const organization = options.organizationId
        ? { id: options.organizationId }
        : await this.organization({ plan: options.plan ?? "PRO" });
      const user = await this.user();
      await operator.addMember({
        organizationId: organization.id,
        userId: user.id,
        role: options.role ?? "admin",
      });
      const created = await app.services.apiKeys.createApiKey({
        organizationId: organization.id,
        userId: user.id,
        name: "test key",
        scopes: options.scopes ?? ["equipment:read"],
        expiresIn: options.expiresAt ? undefined : (options.expiresIn ?? "NEVER"),
        expiresAt: options.expiresAt,
      });
      return { organizationId: organization.id, user, key: created.secret, apiKey: created.apiKey };
    },
  };
}

/**
 * Runs a suite once per database driver. `setup` gives each suite a fresh database and app;
 * the returned getter is valid inside tests.
 */
export function describeEachDriver(name: string, body: (driver: DriverName) => void): void {
  for (const driver of driverNames()) {
    describe(`${name} [${driver}]`, () => body(driver));
  }
}

export type Factories = ReturnType<typeof factories>;
export type FreshDatabase = Awaited<ReturnType<typeof freshDatabase>>;

/** A stand-in that forwards to a value assigned later (in beforeAll), so suites can destructure. */
function lateBound<T extends object>(name: string): { handle: T; set(value: T | undefined): void } {
  let target: T | undefined;
  const handle = new Proxy({} as T, {
    get(_, prop) {
      if (!target) throw new Error(`${name} is only available inside tests (after beforeAll)`);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    handle,
    set(value) {
      target = value;
    },
  };
}

/**
 * Gives a suite its own fresh database and app, built before its tests and torn down after:
 * `const { app, db, make } = useTestApp(driver)`. The handles are valid inside tests.
 */
export function useTestApp(driver: DriverName, options: TestAppOptions = {}) {
  const app = lateBound<OrgitApp>("app");
  const db = lateBound<FreshDatabase>("db");
  const make = lateBound<Factories>("make");
  let built: { app: OrgitApp; db: FreshDatabase } | undefined;
  // kept here too: a slow teardown prints the app's warnings (./teardown-watch.ts)
  const logs = options.logs ?? [];
  beforeAll(async () => {
    const fresh = await freshDatabase(driver);
    const instance = await buildTestApp(fresh.database, { ...options, logs });
    built = { app: instance, db: fresh };
    app.set(instance);
    db.set(fresh);
    make.set(factories(instance));
  });
  afterAll(async () => {
    const context = { logs, databaseUrl: built?.db.databaseUrl };
    await watchedTeardown("the suite's app stopping", async () => built?.app.stop(), context);
    await watchedTeardown("the suite's database dropped", async () => built?.db.drop(), context);
  });
  return { app: app.handle, db: db.handle, make: make.handle };
}
