/**
 * Deno entry point, the twin of src/index.ts: the only file that uses Deno's own APIs. The app
 * itself is web-standard (CONTRACT section 1), so this file only reads the configuration, opens
 * the database, serves `app.handle` with the socket peer recorded, and shuts down gracefully.
 *
 *   deno run --node-modules-dir=manual --allow-net --allow-env --allow-read src/deno.ts [--demo]
 *
 * `--node-modules-dir=manual` makes Deno resolve npm packages from the node_modules that
 * npm installed (through package.json), so both runtimes execute the very same packages.
 * Those three permissions suffice (sockets, configuration, sources/SQL/SDL/TLS files); add
 * `--allow-write` for an on-disk PGlite (DATA_DIR), or use `-A`.
 * The file is excluded from tsconfig (Bun's types do not describe Deno), hence the loose
 * declaration below instead of @types/deno.
 */
import { createApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { createDatabase } from "./db/client.ts";
import { seedDemo } from "./demo/seed.ts";
import { setPeerAddress } from "./http/peer.ts";
import { createLogger, errorFields } from "./logger.ts";

// biome-ignore lint/suspicious/noExplicitAny: Deno's global is typed by the Deno toolchain, not by tsc here
declare const Deno: any;

interface NetAddr {
  hostname: string;
  port: number;
}

async function main() {
  const demo = Deno.args.includes("--demo");
  let config: Config;
  try {
    const env: Record<string, string | undefined> = Deno.env.toObject();
    // the demo prints an operator token so that `bun run cli` works against it at once
    if (demo && !env.ADMIN_TOKEN) env.ADMIN_TOKEN = `demo-${crypto.randomUUID()}`;
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      Deno.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const database = await createDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
  });
  const app = await createApp({ config, database, logger });

  // Deno.serve takes the PEM text itself, not a path
  const tls = config.tls
    ? {
        cert: await Deno.readTextFile(config.tls.certFile),
        key: await Deno.readTextFile(config.tls.keyFile),
      }
    : {};
  const listening = Promise.withResolvers<NetAddr>();
  const server = Deno.serve(
    {
      port: config.port,
      hostname: config.host,
      ...tls,
      // Deno's default logs a plain-text line; ours is the structured one below
      onListen: (addr: NetAddr) => listening.resolve(addr),
    },
    (request: Request, info: { remoteAddr: NetAddr }) =>
      app.handle(setPeerAddress(request, info.remoteAddr.hostname)),
  );
  const addr = await listening.promise;
  const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
  logger.info("listening", {
    url: `${config.tls ? "https" : "http"}://${host}:${addr.port}/`,
    driver: database.driver,
    runtime: "deno",
    operatorApi: Boolean(config.adminToken),
    requireHttps: config.requireHttps,
  });
  if (demo) await seedDemo(app.services, config);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    // stops accepting, lets in-flight requests finish, then flushes batched writes
    await server.shutdown();
    await app.stop();
    await database.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => void shutdown("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error) => {
  console.error(JSON.stringify({ level: "error", msg: "start-up failed", ...errorFields(error) }));
  Deno.exit(1);
});
