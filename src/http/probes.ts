import { Elysia, t } from "elysia";
import type { Database } from "../db/client.ts";
import { migrationsApplied } from "../db/migrate.ts";
import type { Logger } from "../logger.ts";

/**
 * Liveness and readiness for orchestrators and load balancers (contract section 11): no key,
 * no limits, no quota, and exempt from REQUIRE_HTTPS (request-context.ts), because a probe
 * comes from the platform itself, usually over plain HTTP on the pod's address.
 */
export const PROBE_PATHS: ReadonlySet<string> = new Set(["/livez", "/readyz"]);

/** a database slower than this is as good as down for routing purposes */
const CHECK_TIMEOUT_MS = 2_000;

type CheckState = "ok" | "unavailable" | "unknown";
interface Readiness {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState | "pending" };
  /** public: what is missing, never hosts or driver messages */
  reason?: string;
  /** for the log line only */
  detail?: string;
}

/**
 * One readiness check at a time, however many probes arrive meanwhile; each answer reflects a
 * round trip made for it or for a probe waiting alongside it. Transitions are logged once, so
 * an operator sees when and why an instance left and rejoined the pool.
 */
export function readinessCheck(database: Database, logger: Logger): () => Promise<Readiness> {
  let inflight: Promise<Readiness> | undefined;
  let wasReady = true;

  async function probe(): Promise<Readiness> {
    try {
      return (await migrationsApplied(database.db))
        ? { ready: true, checks: { database: "ok", migrations: "ok" } }
        : {
            ready: false,
            checks: { database: "ok", migrations: "pending" },
            reason: "Database migrations are not applied",
          };
    } catch (error) {
      return {
        ready: false,
        checks: { database: "unavailable", migrations: "unknown" },
        reason: "Database unavailable",
        detail: (error as Error)?.message ?? String(error),
      };
    }
  }

  async function run(): Promise<Readiness> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<Readiness>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ready: false,
            checks: { database: "unavailable", migrations: "unknown" },
            reason: "Database unavailable",
            detail: `no answer within ${CHECK_TIMEOUT_MS} ms`,
          }),
        CHECK_TIMEOUT_MS,
      );
    });
    const result = await Promise.race([probe(), timedOut]).finally(() => clearTimeout(timer));
    if (result.ready !== wasReady) {
      wasReady = result.ready;
      if (result.ready) logger.info("ready again: the database answers");
      else logger.warn("not ready", { reason: result.reason, detail: result.detail });
    }
    return result;
  }

  return () => {
    inflight ??= run().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };
}

const CheckStates = t.Object({
  database: t.String({ description: "ok | unavailable" }),
  migrations: t.String({ description: "ok | pending | unknown" }),
});

/** each read replica, when DATABASE_READ_URLS is set: a replica down leaves the instance ready */
const Replicas = t.Optional(
  t.Array(
    t.Object({
      name: t.String(),
      state: t.String({ description: "ok | lagging | unavailable | unknown" }),
      lagMs: t.Union([t.Number(), t.Null()]),
    }),
  ),
);
/** where the reads that may lag went since start */
const Reads = t.Optional(
  t.Object({ replica: t.Number(), primary: t.Number(), fallback: t.Number() }),
);

export const probeRoutes = (database: Database, logger: Logger) => {
  const readiness = readinessCheck(database, logger);
  return new Elysia({ name: "probes" })
    .get("/livez", () => ({ status: "ok" as const }), {
      response: { 200: t.Object({ status: t.Literal("ok") }) },
      // for the platform, not for API clients: documented in docs/operations.md instead
      detail: { hide: true },
    })
    .get(
      "/readyz",
      async ({ set }) => {
        const result = await readiness();
        set.headers["cache-control"] = "no-store";
        const reads = database.reads;
        const replicas = reads ? { replicas: reads.status(), reads: { ...reads.counts } } : {};
        if (result.ready) return { status: "ok" as const, checks: result.checks, ...replicas };
        set.status = 503;
        set.headers["retry-after"] = "1";
        return {
          status: "unavailable" as const,
          error: result.reason ?? "Unavailable",
          checks: result.checks,
          ...replicas,
        };
      },
      {
        response: {
          200: t.Object({
            status: t.Literal("ok"),
            checks: CheckStates,
            replicas: Replicas,
            reads: Reads,
          }),
          503: t.Object({
            status: t.Literal("unavailable"),
            error: t.String(),
            checks: CheckStates,
            replicas: Replicas,
            reads: Reads,
          }),
        },
        detail: { hide: true },
      },
    );
};
