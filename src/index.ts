/**
 * Bun entry point: the only file that uses Bun's own APIs (src/deno.ts is its Deno twin).
 *
 *   bun run src/index.ts [--demo]
 */
import { RedisClient } from "bun";
import { boot } from "./boot.ts";
import { setPeerAddress } from "./http/peer.ts";
import { errorFields } from "./logger.ts";

await boot({
  name: "bun",
  args: process.argv,
  env: process.env,
  exit: (code) => process.exit(code),
  onSignal: (signal, handler) => process.on(signal, handler),
  // commands fail at once while Redis is down (no offline queue), so the limiter fails open
  redis: (url) => new RedisClient(url, { enableOfflineQueue: false, connectionTimeout: 2_000 }),
  async serve(app, config) {
    const server = Bun.serve({
      port: config.port,
      hostname: config.host,
      // a little over the API's own 1 MiB limit, so the app answers 413 in its own format
      maxRequestBodySize: 2 * 1024 * 1024,
      tls: config.tls
        ? { cert: Bun.file(config.tls.certFile), key: Bun.file(config.tls.keyFile) }
        : undefined,
      fetch: (request, srv) => app.handle(setPeerAddress(request, srv.requestIP(request)?.address)),
      // a throw that escapes the app's own error handling still gets the contract's body, not
      // Bun's error page. (Requests Bun's HTTP parser refuses — control characters in a header,
      // headers over 16 KiB — are answered by Bun itself, 400/431 with no body, before this
      // code runs; no Bun.serve option changes that: see docs/security.md.)
      error(error) {
        app.services.logger.error("unhandled error outside the app", errorFields(error));
        return Response.json({ error: "Internal server error" }, { status: 500 });
      },
    });
    return { url: server.url.href, stop: () => server.stop() };
  },
});
