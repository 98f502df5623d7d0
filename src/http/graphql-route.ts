import { Elysia } from "elysia";
import type { GraphQLSchema } from "graphql";
import { ApiError } from "../errors.ts";
import { GRAPHQL_LIMITS, limitError } from "../graphql/limits.ts";
import { createGraphQLServer } from "../graphql/yoga.ts";
import type { Services } from "../services.ts";
import { authenticateGraphQL } from "./auth.ts";
import { requestMeta } from "./request-context.ts";

/** POST/GET /graphql: authenticates the caller, then hands the request to Yoga. */
export function graphqlRoute(services: Services, schema: GraphQLSchema) {
  const { config } = services;
  const yoga = createGraphQLServer(services, schema);

  const wantsGraphiQL = (request: Request) =>
    !config.production &&
    request.method === "GET" &&
    (request.headers.get("accept") ?? "").includes("text/html");

  return new Elysia({ name: "graphql" }).all(
    "/graphql",
    async ({ request, body, set }) => {
      // answers may carry secrets (the operator's createApiKey, install links): never cached
      set.headers["cache-control"] = "no-store";
      if (wantsGraphiQL(request)) return yoga.fetch(request, { principal: null, operator: false });
      const auth = await authenticateGraphQL(
        services,
        request,
        set.headers as Record<string, string>,
      );
      const context = { ...auth, requestId: requestMeta(request)?.id };
      if (request.method !== "POST") return bounded(await yoga.fetch(request, context));
      if (!(request.headers.get("content-type") ?? "").includes("json")) {
        throw new ApiError(
          "UNSUPPORTED_MEDIA_TYPE",
          "Send the body as JSON with Content-Type: application/json",
        );
      }
      // the body was already read (size-limited) by the JSON parser; hand Yoga a fresh copy
      const headers = new Headers(request.headers);
      headers.delete("content-length");
      const text = typeof body === "string" ? body : JSON.stringify(body ?? null);
      const answer = await yoga.fetch(
        new Request(request.url, { method: "POST", headers, body: text }),
        context,
      );
      return bounded(answer);
    },
    { detail: { hide: true } },
  );
}

/**
 * A request error (the document did not parse, failed validation or a limit: `errors` and no
 * `data`) is a 400, as under `application/graphql-response+json`; Yoga answers 200 for it when
 * the client accepts `application/json`, which hides a refusal from HTTP-level tooling.
 */
function requestErrorStatus(status: number, text: string): number {
  if (status !== 200 || !text.startsWith('{"errors"')) return status;
  try {
    return "data" in (JSON.parse(text) as object) ? status : 400;
  } catch {
    return status;
  }
}

/**
 * The answer-size ceiling, a last line behind the cost limit: an answer over
 * GRAPHQL_LIMITS.maxAnswerChars is replaced by a 400 GraphQL error. Yoga's own transport errors
 * (405, 406, …) arrive with an empty body; they get the flat `{ error }` body instead.
 */
async function bounded(answer: Response): Promise<Response> {
  const text = await answer.text();
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  if (answer.status >= 400 && text.trim() === "") {
    headers.set("content-type", "application/json");
    const error = answer.statusText || `HTTP ${answer.status}`;
    return new Response(JSON.stringify({ error }), { status: answer.status, headers });
  }
  if (text.length <= GRAPHQL_LIMITS.maxAnswerChars) {
    return new Response(text, { status: requestErrorStatus(answer.status, text), headers });
  }
  const error = limitError(
    `The answer would exceed ${GRAPHQL_LIMITS.maxAnswerChars} characters; ask for less`,
    "ANSWER_TOO_LARGE",
  );
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ errors: [error.toJSON()] }), { status: 400, headers });
}
