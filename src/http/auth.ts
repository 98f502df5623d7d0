import { Elysia } from "elysia";
import { refusedKeyOf } from "../auth/audit-trail.ts";
import { timingSafeEqualStrings } from "../auth/keys.ts";
import type { Principal } from "../auth/principal.ts";
import { unauthenticated } from "../errors.ts";
import type { OperationBridge } from "../graphql/bridge.ts";
import type { Infrastructure } from "../services.ts";
import { bearerToken } from "./bearer-token.ts";
import type { IdempotencyDeps } from "./idempotency.ts";
import { limitKey, throttled } from "./rate-limit.ts";
import { requestMeta } from "./request-context.ts";
import { graphqlSurface, surfaceOf } from "./surfaces.ts";

export { bearerToken };

/** What API-key authentication needs: the key store, the limits, and where `run` comes from. */
export interface ApiKeyAuthDeps {
  keys: Pick<Infrastructure["keys"], "authenticateNow">;
  limits: Infrastructure["limits"];
  operations: OperationBridge;
}

/** What the REST modules take (each only the members it uses), built once in app.ts. */
export interface RestDeps {
  auth: ApiKeyAuthDeps;
  /** idempotent POSTs keep their first answer (http/idempotency.ts) */
  idempotency: IdempotencyDeps;
  /** PUBLIC_BASE_URL: the origin of list answers' Link URLs */
  publicBaseUrl: string;
}

/**
 * API-key authentication for REST modules. Each module `.use()`s its own instance (no plugin
 * name, so Elysia never deduplicates it away) and gets `principal` plus `run`, the bridge's
 * runner of pre-parsed GraphQL operations as that principal (graphql/bridge.ts). It also
 * applies the rate limits and the daily quota that follow authentication, so every module is
 * covered without doing anything.
 */
export const apiKeyAuth = ({ keys, limits, operations }: ApiKeyAuthDeps) =>
  new Elysia().derive({ as: "scoped" }, async ({ request, path, set, status }) => {
    const headers = set.headers as Record<string, string>;
    const meta = requestMeta(request);
    const authorization = request.headers.get("authorization");
    const surface = surfaceOf(path, authorization !== null);
    let principal: Principal;
    try {
      principal = await throttled(limits, surface, meta, headers, () =>
        keys.authenticateNow(bearerToken(authorization), meta?.clientIp),
      );
    } catch (error) {
      remembered(meta, error);
    }
    if (meta) meta.principal = principal;
    // per-key and burst buckets, the daily quota (A) or the plan's per-minute limit (B)
    const limited = limits.limit(surface, meta?.client ?? "unknown", principal, headers);
    // usually settled already: no microtask
    const refused = limited instanceof Promise ? await limited : limited;
    if (refused) {
      // answered here rather than thrown: a refused client keeps asking, and unwinding an
      // exception through the error hooks cost more than the rest of its 429
      Object.assign(headers, refused.headers);
      return status(refused.status as 429, refused.body());
    }
    return { principal, run: operations.forKey(principal) };
  });

/** A refused key that was recognised is kept for the audit trail; the error goes on. */
function remembered(meta: ReturnType<typeof requestMeta>, error: unknown): never {
  const key = refusedKeyOf(error);
  if (meta && key) meta.refusedKey = key;
  throw error;
}

/** `/graphql` callers: an API key, or the operator token when ADMIN_TOKEN is configured. */
export async function authenticateGraphQL(
  services: Pick<Infrastructure, "config" | "keys" | "limits">,
  request: Request,
  /** where the rate-limit headers go (the operator token is not limited) */
  headers: Record<string, string>,
): Promise<{ principal: Principal | null; operator: boolean }> {
  const token = bearerToken(request.headers.get("authorization"));
  const meta = requestMeta(request);
  const { limits } = services;
  const adminToken = services.config.adminToken;
  if (token && adminToken && !token.startsWith("orgit_")) {
    await throttled(limits, graphqlSurface, meta, headers, async () => {
      if (!timingSafeEqualStrings(token, adminToken)) throw unauthenticated("Invalid API key");
    });
    if (meta) meta.operator = true;
    return { principal: null, operator: true };
  }
  let principal: Principal;
  try {
    principal = await throttled(limits, graphqlSurface, meta, headers, () =>
      services.keys.authenticateNow(token, meta?.clientIp),
    );
  } catch (error) {
    remembered(meta, error);
  }
  if (meta) meta.principal = principal;
  // the client's IP bucket, the key's buckets and the organization's plan limit
  await limitKey(limits, graphqlSurface, meta, principal, headers);
  return { principal, operator: false };
}
