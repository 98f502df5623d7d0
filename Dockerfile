# syntax=docker/dockerfile:1
#
# orgit container image: Bun runs the service; only production dependencies are shipped.
#
#   docker build -t orgit .
#   docker run -p 3000:3000 -e ADMIN_TOKEN=... -e DATABASE_URL=postgres://... \
#     -e TRUST_PROXY=<your TLS proxy> orgit
#
# NODE_ENV=production turns REQUIRE_HTTPS on: put a TLS-terminating proxy in front and list it
# in TRUST_PROXY (so its X-Forwarded-Proto is believed), or mount a certificate and set
# TLS_CERT_FILE / TLS_KEY_FILE. Without DATABASE_URL the embedded PGlite keeps data in memory;
# set DATA_DIR=/data and mount a volume there to keep it.

# ---- dependencies -----------------------------------------------------------------------------
# The project's lockfile is npm's package-lock.json (there is no bun.lock). Bun reads (migrates)
# a package-lock.json when no Bun lockfile exists, and with --frozen-lockfile it installs
# exactly the versions pinned there and fails if package.json disagrees with it (checked with
# bun 1.4.5: same 48 top-level packages and versions as `npm install --omit=dev`). `npm ci` is
# not used because the current package-lock.json omits the other platforms' optional binaries of
# the dev tools (@biomejs/cli-*, @deno/*), which `npm ci` rejects as "not in sync" even with
# --omit=dev. --production leaves out bun/deno/biome/drizzle-kit; every runtime dependency is
# plain JavaScript or WASM (PGlite), so nothing needs compiling and no dependency's install
# script has to run. The one step that must run is ours: patches/ (postgres.js fixes for lost
# connections, see docs/operations.md) applied by patch-package, a production dependency for this.
FROM oven/bun:1.4.5 AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN bun install --production --frozen-lockfile --ignore-scripts \
 && bun patches/apply.mjs

# ---- runtime ----------------------------------------------------------------------------------
FROM oven/bun:1.4.5 AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000

# Owned by root, readable but not writable by the service user: a compromised process cannot
# rewrite its own code or dependencies.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
# migrations (applied at start-up) and the GraphQL SDL are read from disk at run time
COPY drizzle ./drizzle
COPY schema ./schema
COPY src ./src

# the one writable place, for DATA_DIR=/data (PGlite on disk); mount a volume over it
RUN mkdir -p /data && chown bun:bun /data

# the oven/bun image ships an unprivileged "bun" user (uid 1000)
USER bun
EXPOSE 3000
# /readyz answers 503 while the database does not answer or migrations are pending, and needs no
# key and no HTTPS (docs/operations.md). The image has no curl: Bun's fetch does the probe.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "const s=process.env.TLS_CERT_FILE?'https':'http';fetch(`${s}://127.0.0.1:${process.env.PORT||3000}/readyz`,{tls:{rejectUnauthorized:false}}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# `bun run` forwards SIGTERM/SIGINT to the script's process (also as PID 1), so `docker stop`
# reaches the service's graceful shutdown: in-flight requests finish and batched counters flush.
CMD ["bun", "run", "start"]
