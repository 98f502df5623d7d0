import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { Elysia } from "elysia";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga } from "graphql-yoga";
import type { Principal } from "../auth/principal.ts";
import { asApiError } from "../errors.ts";
import { authenticateGraphQL } from "../http/auth.ts";
import { requestMeta } from "../http/request-context.ts";
import { errorFields } from "../logger.ts";
import type { Services } from "../services.ts";
import { createContext } from "./context.ts";
import { inputGuardPlugin } from "./input-guard-plugin.ts";

interface ServerContext {
  principal: Principal | null;
  operator: boolean;
  requestId?: string;
}

/** graphql-yoga at /graphql, for internal tools (API key) and operators (ADMIN_TOKEN). */
export function graphqlRoute(services: Services, schema: GraphQLSchema) {
  const { config, logger } = services;
  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: !config.production,
    landingPage: false,
    logging: false,
    context: ({ principal, operator }) => createContext(services, { principal, operator }),
    plugins: [maxDepthPlugin({ n: 10 }), costLimitPlugin({ maxCost: 5000 }), inputGuardPlugin()],
    maskedErrors: {
      maskError(error, _message, _isDev) {
        if (asApiError(error)) return error as Error;
        // errors without a path arose before execution (syntax, validation, variable
        // coercion): they describe the caller's document, so they are shown as they are
        if (error instanceof GraphQLError && !error.path) return error;
        const original = error instanceof GraphQLError ? error.originalError : error;
        logger.error("unhandled GraphQL error", errorFields(original ?? error));
        return new GraphQLError("Internal server error", {
          extensions: { code: "INTERNAL", status: 500 },
        });
      },
    },
  });

  const wantsGraphiQL = (request: Request) =>
    !config.production &&
    request.method === "GET" &&
    (request.headers.get("accept") ?? "").includes("text/html");

  return new Elysia({ name: "graphql" }).all(
    "/graphql",
    async ({ request, body, set }) => {
      if (wantsGraphiQL(request)) return yoga.fetch(request, { principal: null, operator: false });
      const auth = await authenticateGraphQL(
        services,
        request,
        set.headers as Record<string, string>,
      );
      const context = { ...auth, requestId: requestMeta(request)?.id };
      if (request.method !== "POST") return yoga.fetch(request, context);
      // the body was already read (size-limited) by the JSON parser; hand Yoga a fresh copy
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      const text = typeof body === "string" ? body : JSON.stringify(body ?? null);
      return yoga.fetch(new Request(request.url, { method: "POST", headers, body: text }), context);
    },
    { detail: { hide: true } },
  );
}
