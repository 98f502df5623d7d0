import { expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

test("DATABASE_READ_URLS is read as a list, REPLICA_MAX_LAG_MS defaults to 5000 (docs/operations.md)", () => {
  const config = loadConfig({
    DATABASE_URL: "postgres://app@primary:5432/orgit",
    DATABASE_READ_URLS: " postgres://app@r1:5432/orgit , postgresql://app@r2/orgit,",
  });
  expect(config.readUrls).toEqual(["postgres://app@r1:5432/orgit", "postgresql://app@r2/orgit"]);
  expect(config.replicaMaxLagMs).toBe(5000);
  expect(loadConfig({}).readUrls).toEqual([]);
  expect(loadConfig({ REPLICA_MAX_LAG_MS: "250" }).replicaMaxLagMs).toBe(250);
});

test("a read URL that is not a postgres URL is refused by its position, never echoed", () => {
  const problems = problemsOf({
    DATABASE_URL: "postgres://app@primary/orgit",
    DATABASE_READ_URLS: "postgres://app@r1/orgit,mysql://app:hunter2@r2/orgit",
  });
  expect(problems).toEqual([
    "DATABASE_READ_URLS must be a comma-separated list of postgres:// URLs (entry 2 is not)",
  ]);
  expect(problems.join()).not.toContain("hunter2");
});

test("read replicas without a primary are refused", () => {
  expect(problemsOf({ DATABASE_READ_URLS: "postgres://app@r1/orgit" })).toEqual([
    "DATABASE_READ_URLS needs DATABASE_URL (the primary)",
  ]);
});

test("REPLICA_MAX_LAG_MS must be a positive integer", () => {
  expect(problemsOf({ REPLICA_MAX_LAG_MS: "0" })).toEqual([
    'REPLICA_MAX_LAG_MS must be a positive integer (milliseconds) (got "0")',
  ]);
});

test("DATABASE_POOLER=pgbouncer requires DATABASE_DIRECT_URL and is read with it", () => {
  expect(
    problemsOf({ DATABASE_URL: "postgres://app@pooler:6432/orgit", DATABASE_POOLER: "pgbouncer" }),
  ).toEqual([
    "DATABASE_DIRECT_URL must be set with DATABASE_POOLER=pgbouncer (a session straight to Postgres for LISTEN/NOTIFY and migrations)",
  ]);
  expect(problemsOf({ DATABASE_POOLER: "pgpool" })).toEqual([
    'DATABASE_POOLER must be pgbouncer or none (got "pgpool")',
  ]);
  expect(problemsOf({ DATABASE_DIRECT_URL: "http://db" })).toEqual([
    "DATABASE_DIRECT_URL must be a postgres:// or postgresql:// URL",
  ]);
  const config = loadConfig({
    DATABASE_URL: "postgres://app@pooler:6432/orgit",
    DATABASE_POOLER: "pgbouncer",
    DATABASE_DIRECT_URL: "postgres://app@db:5432/orgit",
  });
  expect(config.pooler).toBe("pgbouncer");
  expect(config.directUrl).toBe("postgres://app@db:5432/orgit");
  expect(loadConfig({ DATABASE_POOLER: "none" }).pooler).toBeUndefined();
});
