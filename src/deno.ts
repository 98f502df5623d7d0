/**
 * Deno entry point, the twin of src/index.ts: the only file that uses Deno's own APIs. The app
 * itself is web-standard (docs/decisions.md §1), so this file only reads the configuration, opens
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
import { boot } from "./boot.ts";
import { setPeerAddress } from "./http/peer.ts";

// biome-ignore lint/suspicious/noExplicitAny: Deno's global is typed by the Deno toolchain, not by tsc here
declare const Deno: any;

interface NetAddr {
  hostname: string;
  port: number;
}

await boot({
  name: "deno",
  args: Deno.args,
  env: Deno.env.toObject(),
  exit: (code) => Deno.exit(code) as never,
  onSignal: (signal, handler) => Deno.addSignalListener(signal, handler),
  async serve(app, config) {
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
        // Deno's default logs a plain-text line; boot() logs the structured one
        onListen: (addr: NetAddr) => listening.resolve(addr),
      },
      (request: Request, info: { remoteAddr: NetAddr }) =>
        app.handle(setPeerAddress(request, info.remoteAddr.hostname)),
    );
    const addr = await listening.promise;
    const host = addr.hostname.includes(":") ? `[${addr.hostname}]` : addr.hostname;
    return {
      url: `${config.tls ? "https" : "http"}://${host}:${addr.port}/`,
      // stops accepting and lets in-flight requests finish
      stop: () => server.shutdown(),
    };
  },
});
