import { Elysia } from "elysia";
import type { AuditTrail, RefusedKey } from "../auth/audit-trail.ts";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { type ClientIpResolver, clientNetwork } from "./client-ip.ts";
import { peerAddress } from "./peer.ts";
import { PROBE_PATHS } from "./probes.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HSTS = "max-age=31536000; includeSubDomains";

/** Per-request facts gathered along the way, for the access log. */
export interface RequestMeta {
  id: string;
  /** the URL's path, read once (Bun builds `request.url` anew on each read) */
  path: string;
  startedAt: number;
  clientIp: string | undefined;
  /** the client as limits count it: `clientIp`, or its /64 for IPv6 (`clientNetwork`) */
  client: string;
  secure: boolean;
  principal?: Principal;
  /** a recognised key that was refused (revoked, expired…): still recorded in the audit trail */
  refusedKey?: RefusedKey;
  operator?: boolean;
}

const metas = new WeakMap<Request, RequestMeta>();
export const requestMeta = (request: Request) => metas.get(request);

/** The path of a request URL without parsing all of it (this runs on every request). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

/**
 * The status the client received: a handler that returns a `Response` (the HTML pages do:
 * 303 redirects, 401 and 403 forms) sets its status there, not in `set.status`.
 */
export function answeredStatus(value: unknown, setStatus: unknown): number {
  if (value instanceof Response) return value.status;
  return typeof setStatus === "number" ? setStatus : 200;
}

interface Deps {
  config: Config;
  logger: Logger;
  clientIp: ClientIpResolver;
  /** every request authenticated with an API key is recorded here once answered */
  audit?: Pick<AuditTrail, "request">;
}

interface PeerFacts {
  trusted: boolean;
  /** the client address when the request carries no X-Forwarded-For */
  direct: string | undefined;
  /** its network as limits count it */
  directNetwork: string;
}
const PEER_MEMO_SIZE = 4_096;

/**
 * The resolver's answers for a socket peer, kept per peer text: parsing the address (ipaddr.js)
 * was several percent of a whoami's CPU, and a client sends many requests from one address.
 * Only the peer-dependent part is kept; X-Forwarded-For from a trusted peer is resolved each
 * time. Bounded: cleared when full.
 */
function peerMemo(clientIp: ClientIpResolver) {
  const known = new Map<string, PeerFacts>();
  const noPeer = unknownPeer(clientIp);
  return (peer: string | undefined): PeerFacts => {
    if (peer === undefined) return noPeer;
    let facts = known.get(peer);
    if (!facts) {
      const direct = clientIp.resolve(peer, null);
      facts = { trusted: clientIp.isTrusted(peer), direct, directNetwork: clientNetwork(direct) };
      if (known.size >= PEER_MEMO_SIZE) known.clear();
      known.set(peer, facts);
    }
    return facts;
  };
}

function unknownPeer(clientIp: ClientIpResolver): PeerFacts {
  const direct = clientIp.resolve(undefined, null);
  return { trusted: false, direct, directNetwork: clientNetwork(direct) };
}

/**
 * Runs first on every request, routed or not: request id, client IP, HTTPS policy and HSTS,
 * the body size limit, and one JSON access-log line once the response is sent.
 */
export const requestContext = ({ config, logger, clientIp, audit }: Deps) => {
  const peerFacts = peerMemo(clientIp);
  return new Elysia({ name: "request-context" })
    .onRequest(({ request, set }) => {
      // every answer, errors included: browsers must not guess a type other than the one sent
      set.headers["x-content-type-options"] = "nosniff";
      const incoming = request.headers.get("x-request-id");
      const peer = peerAddress(request);
      const facts = peerFacts(peer);
      const viaTrustedProxy = facts.trusted;
      const forwardedProto = viaTrustedProxy
        ? request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase()
        : undefined;
      const url = request.url;
      const secure = forwardedProto ? forwardedProto === "https" : url.startsWith("https:");
      const forwarded = viaTrustedProxy
        ? clientIp.resolve(peer, request.headers.get("x-forwarded-for"))
        : undefined;
      const meta: RequestMeta = {
        id: incoming && INCOMING_ID.test(incoming) ? incoming : crypto.randomUUID(),
        path: pathOf(url),
        startedAt: performance.now(),
        clientIp: viaTrustedProxy ? forwarded : facts.direct,
        client: viaTrustedProxy ? clientNetwork(forwarded) : facts.directNetwork,
        secure,
      };
      metas.set(request, meta);
      set.headers["x-request-id"] = meta.id;
      if (secure) set.headers["strict-transport-security"] = HSTS;
      if (config.requireHttps && !secure && !PROBE_PATHS.has(meta.path)) {
        set.status = 403;
        return { error: "HTTPS required" };
      }
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length > MAX_BODY_BYTES) {
        set.status = 413;
        return { error: "Request body too large (limit 1 MiB)" };
      }
    })
    .onAfterResponse({ as: "global" }, ({ request, set, route, responseValue }) => {
      const meta = metas.get(request);
      const status = answeredStatus(responseValue, set.status);
      const durationMs = meta
        ? Math.round((performance.now() - meta.startedAt) * 100) / 100
        : undefined;
      const principal = meta?.principal;
      const userAgent = request.headers.get("user-agent");
      const key = principal
        ? {
            organizationId: principal.organization.id,
            apiKeyId: principal.apiKey.id,
            userId: principal.user.id,
          }
        : meta?.refusedKey;
      if (key && audit) {
        audit.request({
          organizationId: key.organizationId,
          apiKeyId: key.apiKeyId,
          userId: key.userId,
          method: request.method,
          route,
          status,
          durationMs: durationMs ?? 0,
          ip: meta?.clientIp,
          userAgent,
          requestId: meta?.id,
        });
      }
      logger.request({
        requestId: meta?.id,
        method: request.method,
        path: meta?.path ?? pathOf(request.url),
        status,
        durationMs,
        ip: meta?.clientIp,
        organizationId: meta?.principal?.organization.id,
        apiKeyId: meta?.principal?.apiKey.id,
        operator: meta?.operator || undefined,
        userAgent: userAgent ?? undefined,
      });
    });
};
