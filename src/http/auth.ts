import { Elysia } from "elysia";
import { timingSafeEqualStrings } from "../auth/keys.ts";
import type { Principal } from "../auth/principal.ts";
import { unauthenticated } from "../errors.ts";
import type { OperationBridge } from "../graphql/bridge.ts";
import type { Services } from "../services.ts";
import type { IdempotencyDeps } from "./idempotency.ts";
import { requestMeta } from "./request-context.ts";

/** The token of an `Authorization: Bearer <token>` header; undefined for any other shape. */
export function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
  return match?.[1];
}

/** What API-key authentication needs: the key store, the limits, and where `run` comes from. */
export interface ApiKeyAuthDeps {
  keys: Pick<Services["keys"], "authenticate">;
  limits: Services["limits"];
  operations: OperationBridge;
}

/** What the REST modules take (each only the members it uses), built once in app.ts. */
export interface RestDeps {
  auth: ApiKeyAuthDeps;
  /** idempotent POSTs keep their first answer (http/idempotency.ts) */
  idempotency: IdempotencyDeps;
}

/**
 * API-key authentication for REST modules. Each module `.use()`s its own instance (no plugin
 * name, so Elysia never deduplicates it away) and gets `principal` plus `run`, the bridge's
 * runner of pre-parsed GraphQL operations as that principal (graphql/bridge.ts). It also
 * applies the rate limits and the daily quota that follow authentication, so every module is
 * covered without doing anything.
 */
export const apiKeyAuth = ({ keys, limits, operations }: ApiKeyAuthDeps) =>
  new Elysia().derive({ as: "scoped" }, async ({ request, path, set }) => {
    const headers = set.headers as Record<string, string>;
    const meta = requestMeta(request);
    const principal = await limits.throttle(meta, headers, () =>
      keys.authenticate(bearerToken(request.headers.get("authorization"))),
    );
    if (meta) meta.principal = principal;
    // per-key and burst buckets, the daily quota (A) or the plan's per-minute limit (B)
    const limited = limits.afterAuth(meta, path, principal, headers);
    if (limited instanceof Promise) await limited; // usually settled already: no microtask
    return { principal, run: operations.forKey(principal) };
  });

/** `/graphql` callers: an API key, or the operator token when ADMIN_TOKEN is configured. */
export async function authenticateGraphQL(
  services: Pick<Services, "config" | "keys" | "limits">,
  request: Request,
  /** where the per-key rate-limit headers go (the operator token is not limited) */
  headers?: Record<string, string>,
): Promise<{ principal: Principal | null; operator: boolean }> {
  const token = bearerToken(request.headers.get("authorization"));
  const meta = requestMeta(request);
  const adminToken = services.config.adminToken;
  const limitHeaders = headers ?? {};
  if (token && adminToken && !token.startsWith("orgit_")) {
    await services.limits.throttle(meta, limitHeaders, async () => {
      if (!timingSafeEqualStrings(token, adminToken)) throw unauthenticated("Invalid API key");
    });
    if (meta) meta.operator = true;
    return { principal: null, operator: true };
  }
  const principal = await services.limits.throttle(meta, limitHeaders, () =>
    services.keys.authenticate(token),
  );
  if (meta) meta.principal = principal;
  if (headers) await services.limits.graphql(meta, principal, headers);
  return { principal, operator: false };
}
