/**
 * Bun entry point: the only file that uses Bun's own APIs. Reads the configuration, opens and
 * migrates the database, serves the app, and shuts down gracefully on SIGINT/SIGTERM.
 */
import { createApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { createDatabase } from "./db/client.ts";
import { seedDemo } from "./demo/seed.ts";
import { setPeerAddress } from "./http/peer.ts";
import { createLogger, errorFields } from "./logger.ts";

async function main() {
  const demo = process.argv.includes("--demo");
  let config: ReturnType<typeof loadConfig>;
  try {
    const env = { ...process.env };
    // the demo prints an operator token so that `bun run cli` works against it at once
    if (demo && !env.ADMIN_TOKEN) env.ADMIN_TOKEN = `demo-${crypto.randomUUID()}`;
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const app = await createApp({ config, database, logger });
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // a little over the API's own 1 MiB limit, so the app answers 413 in its own format
    maxRequestBodySize: 2 * 1024 * 1024,
    tls: config.tls
      ? { cert: Bun.file(config.tls.certFile), key: Bun.file(config.tls.keyFile) }
      : undefined,
    fetch(request, srv) {
      return app.handle(setPeerAddress(request, srv.requestIP(request)?.address));
    },
  });
  logger.info("listening", {
    url: server.url.href,
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
    await app.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(JSON.stringify({ level: "error", msg: "start-up failed", ...errorFields(error) }));
  process.exit(1);
});
