/**
 * Start-up and shutdown shared by the Bun and Deno entry points. The entry passes in what only
 * its runtime can do (arguments, environment, signals, exit, and serving the fetch handler).
 */
import { createApp, type OrgitApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { createDatabase } from "./db/client.ts";
import { seedDemo } from "./demo/seed.ts";
import type { RedisCommands } from "./limits/redis-buckets.ts";
import { createLogger, errorFields } from "./logger.ts";
import type { RedisSubscriber } from "./outbox/live.ts";

export interface Runtime {
  name: "bun" | "deno";
  args: readonly string[];
  env: Record<string, string | undefined>;
  exit(code: number): never;
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): void;
  /**
   * A new Redis connection (REDIS_URL): one for shared rate-limit buckets, live-update
   * publishing and stream slots, one for SUBSCRIBE. Absent: in-process buckets, and live
   * updates through Postgres LISTEN/NOTIFY.
   */
  redis?(url: string): RedisCommands & RedisSubscriber;
  /** serves the app; `stop` stops accepting and lets in-flight requests finish */
  serve(app: OrgitApp, config: Config): Promise<{ url: string; stop(): Promise<void> }>;
}

function readConfig(runtime: Runtime, demo: boolean): Config {
  const env = { ...runtime.env };
  // the demo prints an operator token so that `bun run cli` works against it at once
  if (demo && !env.ADMIN_TOKEN) env.ADMIN_TOKEN = `demo-${crypto.randomUUID()}`;
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return runtime.exit(1);
    }
    throw error;
  }
}

/** A start-up step that failed, said in words an operator acts on (and the cause's own text). */
class StartupFailure extends Error {}

async function step<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new StartupFailure(`${what}: ${cause}`, { cause: error });
  }
}

/** Where the database is, without the user name or password a DATABASE_URL may carry. */
function databasePlace(config: Config): string {
  if (!config.databaseUrl) return config.dataDir ? `PGlite in ${config.dataDir}` : "PGlite";
  try {
    const url = new URL(config.databaseUrl);
    return `Postgres at ${url.host}${url.pathname}`;
  } catch {
    return "Postgres (DATABASE_URL)";
  }
}

export async function boot(runtime: Runtime): Promise<void> {
  try {
    const demo = runtime.args.includes("--demo");
    const config = readConfig(runtime, demo);
    const logger = createLogger(config.logLevel);
    const database = await step(
      `cannot use the database (${databasePlace(config)}; check DATABASE_URL and that it runs)`,
      () =>
        createDatabase({
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          readUrls: config.readUrls,
          maxLagMs: config.replicaMaxLagMs,
          pooler: config.pooler,
          directUrl: config.directUrl,
          logger,
        }),
    );
    const redis = config.redisUrl ? runtime.redis?.(config.redisUrl) : undefined;
    const redisSubscriber = config.redisUrl ? runtime.redis?.(config.redisUrl) : undefined;
    const app = await createApp({ config, database, logger, redis, redisSubscriber });
    const server = await step(
      `cannot listen on ${config.host}:${config.port} (is another process using it? set PORT)`,
      () => runtime.serve(app, config),
    );
    logger.info("listening", {
      url: server.url,
      runtime: runtime.name,
      driver: database.driver,
      operatorApi: Boolean(config.adminToken),
      requireHttps: config.requireHttps,
    });
    if (!config.adminToken) {
      logger.warn("operator access is off", {
        hint: "set ADMIN_TOKEN (16 characters or more) and restart to use the operator API at /graphql and `npx orgit`",
      });
    }
    if (demo) await seedDemo(app.services, config);

    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info("shutting down", { signal });
      await server.stop();
      try {
        await app.stop(); // flushes batched writes
        await database.close();
        logger.flush?.();
      } catch (error) {
        // e.g. the database went away meanwhile: say so, and still exit rather than hang
        logger.error("shutdown could not finish cleanly", errorFields(error));
        runtime.exit(1);
      }
      runtime.exit(0);
    };
    runtime.onSignal("SIGINT", () => void shutdown("SIGINT"));
    runtime.onSignal("SIGTERM", () => void shutdown("SIGTERM"));
  } catch (error) {
    // one plain line for a person at a terminal; the stack only when asked for
    const message = error instanceof Error ? error.message : String(error);
    console.error(`orgit could not start: ${message}`);
    if (runtime.env.LOG_LEVEL === "debug") {
      console.error(
        JSON.stringify({ level: "debug", msg: "start-up failed", ...errorFields(error) }),
      );
    }
    runtime.exit(1);
  }
}
