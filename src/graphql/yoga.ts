import { GraphQLError, type GraphQLSchema, introspectionFromSchema } from "graphql";
import { createYoga, type GraphiQLOptions } from "graphql-yoga";
import type { Principal } from "../auth/principal.ts";
import type { Config } from "../config.ts";
import type { ReadRouting } from "../db/database.ts";
import { asApiError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { errorFields } from "../logger.ts";
import { createContext, type GraphQLDeps } from "./context.ts";
import { inputGuardPlugin } from "./input-guard-plugin.ts";
import { graphqlLimitPlugins } from "./limits.ts";
import { parsedPosts } from "./parsed-body.ts";
import { readRoutingPlugin } from "./read-routing-plugin.ts";
import { compileRepeatedDocuments } from "./repeat-compiler.ts";
import { queryBody, RepeatedQueries } from "./repeated-queries.ts";

/** What the transport (http/graphql-route.ts) hands Yoga with each request. */
export interface ServerContext {
  principal: Principal | null;
  operator: boolean;
  requestId?: string;
}

const GRAPHIQL = {
  title: "orgit GraphQL",
  headers: JSON.stringify({ Authorization: "Bearer <an API key, or ADMIN_TOKEN>" }, null, 2),
  // a key typed in is not kept in the browser's storage
  shouldPersistHeaders: false,
  defaultEditorToolsVisibility: "headers" as const,
  defaultQuery:
    "# Every request needs an Authorization header: in the\n" +
    "# Headers tab below, replace the placeholder with an API\n" +
    "# key (orgit_…) or the operator token (ADMIN_TOKEN).\n" +
    "# The schema (Docs, completion) works without one.\n" +
    "{\n  whoami {\n    organization { id name }\n    user { id role }\n  }\n}\n",
};

/**
 * GraphiQL's options with the schema: the page renders with `schema` given to GraphiQL (its
 * options are spread onto the component, which takes an introspection result), so the
 * explorer and completion work at once and "Error fetching schema" never shows for want of a
 * key. Built on the first page view, not at start-up (tens of ms for every app built, and most
 * instances never serve the page). Yoga's own option type does not name `schema`.
 */
function graphiqlWithSchema(schema: GraphQLSchema): () => GraphiQLOptions {
  let options: (GraphiQLOptions & { schema: object }) | undefined;
  return () => {
    options ??= { ...GRAPHIQL, schema: introspectionFromSchema(schema) };
    return options;
  };
}

/** Accept headers for which Yoga answers `application/json; charset=utf-8` */
const plainJsonAccept = (request: Request) => {
  const accept = request.headers.get("accept");
  return accept === null || accept === "*/*" || accept === "application/json";
};

/**
 * CORS for /graphql (docs/security.md): only an origin listed in CORS_ORIGINS is answered, by
 * its own name, and never with credentials (callers send an API key header, not cookies).
 * Yoga's default would echo any Origin with credentials allowed.
 */
function corsFor(origins: string[]) {
  const allowed = new Set(origins);
  return (request: Request) => {
    const origin = request.headers.get("origin");
    if (!origin || !allowed.has(origin)) return false as const;
    return {
      origin: [origin],
      credentials: false,
      methods: ["GET", "POST"],
      allowedHeaders: ["authorization", "content-type"],
      maxAge: 600,
    };
  };
}

/**
 * The graphql-yoga server behind /graphql, for internal tools (API key) and operators
 * (ADMIN_TOKEN); http/graphql-route.ts authenticates and hands it the request.
 */
export function createGraphQLServer(
  {
    config,
    logger,
    graphql,
    reads,
  }: { config: Config; logger: Logger; graphql: GraphQLDeps; reads?: ReadRouting },
  schema: GraphQLSchema,
) {
  const posts = parsedPosts();
  // without replicas only: a query on /graphql reads where read routing sends it (its plugin)
  const repeated = reads ? undefined : new RepeatedQueries(schema);
  const yoga = createYoga<ServerContext>({
    schema,
    graphqlEndpoint: "/graphql",
    // GraphiQL from the pinned @graphql-yoga/render-graphiql package (no CDN), loaded on the
    // first page view only; the headers editor starts with the Authorization line to fill in.
    // The page carries the schema, so GraphiQL never introspects before a key is typed in
    // (docs/decisions.md §22): the schema is public (schema/*.graphql), nothing keyless is added
    graphiql: config.production ? false : graphiqlWithSchema(schema),
    renderGraphiQL: async (options) =>
      (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    landingPage: false,
    cors: corsFor(config.corsOrigins),
    logging: false,
    context: ({ principal, operator }) => createContext(graphql, { principal, operator }),
    plugins: [
      posts.plugin,
      ...graphqlLimitPlugins(),
      inputGuardPlugin(),
      compileRepeatedDocuments(repeated && ((...known) => repeated.remember(...known))),
      ...readRoutingPlugin(reads),
    ],
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
  return {
    /** any request, through Yoga's HTTP adapter */
    fetch: (request: Request, context: ServerContext) => yoga.fetch(request, context),
    /** a POST of a parsed body that no adapter hook concerns (graphql-route.ts) */
    handlePost: (request: Request, context: ServerContext) => posts.handle(request, context),
    /**
     * Such a POST's answer (its JSON text) when it repeats a query already answered from
     * compiled code and answers plainly again, as Yoga would for this Accept; else undefined
     */
    repeated(request: Request, body: Record<string, unknown>, context: ServerContext) {
      const query = repeated && plainJsonAccept(request) ? queryBody(body) : undefined;
      return query && repeated?.answer(query, createContext(graphql, context));
    },
  };
}
