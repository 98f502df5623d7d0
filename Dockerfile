# syntax=docker/dockerfile:1
#
# orgit container image: Bun runs the service; only production dependencies are shipped.
#
#   docker build -t orgit .
#   docker run -p 3000:3000 -e ADMIN_TOKEN=... -e DATABASE_URL=postgres://... \
#     -e TRUST_PROXY=<your TLS proxy> orgit
#
# NODE_ENV=production needs WEBHOOK_SECRET_KEY (docs/deploying.md) and turns REQUIRE_HTTPS
# on: put a TLS-terminating proxy in front and list it in TRUST_PROXY (so its
# X-Forwarded-Proto is believed), or mount a certificate and set TLS_CERT_FILE / TLS_KEY_FILE. Without DATABASE_URL the embedded PGlite keeps data in memory;
# set DATA_DIR=/data and mount a volume there to keep it.

# ---- dependencies -----------------------------------------------------------------------------
# The base image is named in full (registry/owner/name:tag) so that podman and other runtimes
# without a default registry accept it, and its tag is the Bun version package.json pins
# (devDependencies.bun). Pin it by digest too when you build in production:
#   docker buildx imagetools inspect docker.io/oven/bun:1.4.5   → sha256:…
#   FROM docker.io/oven/bun:1.4.5@sha256:…
# (not written here: the digest could not be looked up from the offline machine this was made on,
# and a made-up one would fail every build.)
#
# The lockfile is npm's package-lock.json (`npm ci` is what CI runs). The image has no npm, so
# Bun installs from it: with no bun.lock, Bun reads package-lock.json, and --frozen-lockfile
# makes it install exactly the versions pinned there and fail if package.json disagrees.
# --production leaves out the dev tools (bun, deno, biome, drizzle-kit, redocly, chromium);
# --omit=peer leaves out what packages only name as peers for their type-level features and
# nothing here loads: TypeScript (23 MB, a peer of @elysiajs/openapi's type generator, which the
# service does not use), bun-types, openapi-types, and file-type (Elysia loads it lazily for file
# uploads, which no route takes). node_modules: 142 MB → 106 MB.
# Every runtime dependency is plain JavaScript or WASM (PGlite), so no install script has to run;
# the one step that must run is ours: patches/ (postgres.js fixes for lost connections, see
# docs/operations.md) applied by patch-package, a production dependency for this.
FROM docker.io/oven/bun:1.4.5-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN bun install --production --frozen-lockfile --ignore-scripts --omit=peer \
 && bun patches/apply.mjs

# ---- runtime ----------------------------------------------------------------------------------
# the slim variant (Debian slim + Bun, no build tools, no git) is enough to run the service
FROM docker.io/oven/bun:1.4.5-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
# Bun's allocator (mimalloc) keeps the memory it freed instead of handing it back to the kernel
# 100 ms later: the madvise calls and page faults of that churn were a sixth of the service's
# CPU under load (docs/decisions.md §39). Set it to a delay in ms to return memory again.
ENV MIMALLOC_PURGE_DELAY=-1

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

# Ready = the database answers and migrations are applied (GET /readyz; no key, no limits, and
# exempt from REQUIRE_HTTPS). The image has no curl, so Bun itself asks; HTTPS when the service
# serves TLS directly (its certificate may be self-signed, and this only talks to itself).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "const s = process.env.TLS_CERT_FILE ? 'https' : 'http'; const r = await fetch(`${s}://127.0.0.1:${process.env.PORT ?? 3000}/readyz`, { tls: { rejectUnauthorized: false } }).catch(() => null); process.exit(r?.ok ? 0 : 1)"]

# Bun runs the entry point itself as PID 1 (no npm, no shell in between), so `docker stop`'s
# SIGTERM reaches the service's graceful shutdown: in-flight requests finish, counters flush.
CMD ["bun", "src/index.ts"]
