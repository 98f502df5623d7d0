import { Elysia } from "elysia";
import { timingSafeEqualStrings } from "../auth/keys.ts";
import type { Principal } from "../auth/principal.ts";
import { unauthenticated } from "../errors.ts";
import { createContext } from "../graphql/context.ts";
import type { OperationExecutor, OperationName } from "../graphql/executor.ts";
import type { Services } from "../services.ts";
import { requestMeta } from "./request-context.ts";

/** The token of an `Authorization: Bearer <token>` header; undefined for any other shape. */
export function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
  return match?.[1];
}

export interface RestDeps {
  services: Services;
  executor: OperationExecutor;
}

/**
 * API-key authentication for REST modules. Each module `.use()`s its own instance (no plugin
 * name, so Elysia never deduplicates it away) and gets `principal` plus `run`, which executes
 * a pre-parsed GraphQL operation as that principal.
 */
export const apiKeyAuth = ({ services, executor }: RestDeps) =>
  new Elysia().derive({ as: "scoped" }, async ({ request }) => {
    const principal = await services.keys.authenticate(
      bearerToken(request.headers.get("authorization")),
    );
    const meta = requestMeta(request);
    if (meta) meta.principal = principal;
    const context = createContext(services, { principal });
    return {
      principal,
      run: <T>(operation: OperationName, variables?: Record<string, unknown>) =>
        executor.run<T>(operation, context, variables),
    };
  });

/** `/graphql` callers: an API key, or the operator token when ADMIN_TOKEN is configured. */
export async function authenticateGraphQL(
  services: Services,
  request: Request,
): Promise<{ principal: Principal | null; operator: boolean }> {
  const token = bearerToken(request.headers.get("authorization"));
  const meta = requestMeta(request);
  const adminToken = services.config.adminToken;
  if (token && adminToken && !token.startsWith("orgit_")) {
    if (!(await timingSafeEqualStrings(token, adminToken)))
      throw unauthenticated("Invalid API key");
    if (meta) meta.operator = true;
    return { principal: null, operator: true };
  }
  const principal = await services.keys.authenticate(token);
  if (meta) meta.principal = principal;
  return { principal, operator: false };
}
