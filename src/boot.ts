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

export interface Runtime {
  name: "bun" | "deno";
  args: readonly string[];
  env: Record<string, string | undefined>;
  exit(code: number): never;
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): void;
  /** a Redis client for shared rate-limit buckets (REDIS_URL); absent: in-process buckets */
  redis?(url: string): RedisCommands;
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

export async function boot(runtime: Runtime): Promise<void> {
  try {
    const demo = runtime.args.includes("--demo");
    const config = readConfig(runtime, demo);
    const logger = createLogger(config.logLevel);
    const database = await createDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
    });
    const redis = config.redisUrl ? runtime.redis?.(config.redisUrl) : undefined;
    const app = await createApp({ config, database, logger, redis });
    const server = await runtime.serve(app, config);
    logger.info("listening", {
      url: server.url,
      runtime: runtime.name,
      driver: database.driver,
      operatorApi: Boolean(config.adminToken),
      requireHttps: config.requireHttps,
    });
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
    console.error(
      JSON.stringify({ level: "error", msg: "start-up failed", ...errorFields(error) }),
    );
    runtime.exit(1);
  }
}
