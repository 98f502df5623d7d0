import { Elysia } from "elysia";
import { GraphQLError, type GraphQLSchema } from "graphql";
import type { Principal } from "../auth/principal.ts";
import { ApiError } from "../errors.ts";
import type { GraphQLDeps } from "../graphql/context.ts";
import { GRAPHQL_LIMITS, limitError } from "../graphql/limits.ts";
import { hasParsedBody, withParsedBody } from "../graphql/parsed-body.ts";
import { createGraphQLServer } from "../graphql/yoga.ts";
import type { Infrastructure } from "../services.ts";
import { authenticateGraphQL, bearerToken } from "./auth.ts";
import { limitPage } from "./rate-limit.ts";
import { requestMeta } from "./request-context.ts";
import { keylessPageSurface } from "./surfaces.ts";

/** POST/GET /graphql: authenticates the caller, then hands the request to Yoga. */
export function graphqlRoute(
  deps: Pick<Infrastructure, "config" | "logger" | "keys" | "limits" | "database" | "live"> & {
    graphql: GraphQLDeps;
  },
  schema: GraphQLSchema,
) {
  const { config } = deps;
  const yoga = createGraphQLServer({ ...deps, reads: deps.database.reads }, schema);

  const wantsGraphiQL = (request: Request) =>
    !config.production &&
    request.method === "GET" &&
    (request.headers.get("accept") ?? "").includes("text/html");

  /**
   * One of the key's stream slots; whenever its key or organization changes, the caller is
   * authenticated again (from the same address) and its subscriptions checked against that.
   */
  const openStream = (request: Request, principal: Principal) => {
    const token = bearerToken(request.headers.get("authorization"));
    const clientIp = requestMeta(request)?.clientIp;
    const reload = () => deps.keys.authenticate(token, clientIp);
    return deps.live.openStream(principal.apiKey.id, principal.organization.id, reload);
  };

  return new Elysia({ name: "graphql" }).all(
    "/graphql",
    async ({ request, body, set }) => {
      // answers may carry secrets (the operator's createApiKey, install links): never cached
      set.headers["cache-control"] = "no-store";
      if (wantsGraphiQL(request)) {
        // a keyless page of 9 MB: one token from the address's bucket, the per-IP 429 beyond
        const headers = set.headers as Record<string, string>;
        await limitPage(deps.limits, keylessPageSurface, requestMeta(request), headers);
        return yoga.fetch(request, { principal: null, operator: false });
      }
      // a CORS preflight carries no credential: Yoga answers it (204, CORS headers if allowed)
      if (request.method === "OPTIONS")
        return yoga.fetch(request, { principal: null, operator: false });
      const auth = await authenticateGraphQL(deps, request, set.headers as Record<string, string>);
      const context = { ...auth, requestId: requestMeta(request)?.id };
      let forwarded = request;
      if (request.method !== "POST") {
        const refused = badParameter(request);
        if (refused) return refused;
      } else {
        if (!(request.headers.get("content-type") ?? "").includes("json")) {
          throw new ApiError(
            "UNSUPPORTED_MEDIA_TYPE",
            "Send the body as JSON with Content-Type: application/json",
          );
        }
        forwarded = forwardedPost(request, body);
      }
      // a Server-Sent Events stream (subscriptions) holds one of the key's stream slots
      const stream =
        wantsStream(request) && auth.principal
          ? await openStream(request, auth.principal)
          : undefined;
      try {
        const plain = plainPost(forwarded); // never a stream
        const known =
          plain && (await yoga.repeated(forwarded, body as Record<string, unknown>, context));
        if (known && known.length <= GRAPHQL_LIMITS.maxAnswerChars) {
          set.headers["content-type"] = "application/json; charset=utf-8";
          return known;
        }
        const response = await (plain ? yoga.handlePost : yoga.fetch)(forwarded, context);
        return answer(response, set, stream);
      } catch (error) {
        stream?.release();
        throw error;
      }
    },
    { detail: { hide: true } },
  );
}

/**
 * The POST for Yoga: its body was already read (size-limited) by the JSON parser. An object,
 * what every GraphQL request is, goes over as it is (graphql/parsed-body.ts); anything else
 * is written out again for Yoga's own parser, whose refusals it then answers as before. The
 * client's abort signal goes with a stream only: with it, a client gone before its answer made
 * Yoga throw an AbortError, logged as an unhandled error and counted as a 500.
 */
function forwardedPost(request: Request, body: unknown): Request {
  // only a stream ends with its client; an answer is finished and dropped like a REST one's
  const signal = wantsStream(request) ? request.signal : undefined;
  if (body !== null && typeof body === "object" && !Array.isArray(body))
    return withParsedBody(request, body as Record<string, unknown>, signal);
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  const text = typeof body === "string" ? body : JSON.stringify(body ?? null);
  return new Request(request.url, { method: "POST", headers, body: text, signal });
}

/**
 * A POST that Yoga's HTTP adapter has nothing to do for: its parsed body, no Origin (no CORS
 * headers to add), the endpoint's own URL (no query string Yoga's health check could match)
 * and not a stream (no abort signal to follow).
 */
const plainPost = (request: Request) =>
  hasParsedBody(request) &&
  !request.headers.has("origin") &&
  request.url.endsWith("/graphql") &&
  !wantsStream(request);

const wantsStream = (request: Request) =>
  (request.headers.get("accept") ?? "").includes("text/event-stream");

type Stream = Awaited<ReturnType<Infrastructure["live"]["openStream"]>>;

type Answer = { headers: Record<string, unknown>; status?: number | string };

/** An event stream passes through as it is (giving its slot back when it ends); others are bounded. */
function answer(response: Response, set: Answer, stream?: Stream) {
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream") || !response.body) {
    stream?.release();
    return bounded(response, set);
  }
  if (!stream) return response;
  return new Response(releasing(response.body, stream), {
    status: response.status,
    headers: response.headers,
  });
}

/**
 * The stream, giving its slot back once when it ends, fails or its reader goes away, and
 * ending it when its key stops authenticating (a revoked key streams nothing more).
 */
function releasing(body: ReadableStream<Uint8Array>, { release, onEnd }: Stream) {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onEnd(() => {
        release();
        try {
          controller.close();
        } catch {
          // already closed: it ended by itself meanwhile
        }
        void reader.cancel().catch(() => {});
      });
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
}

/**
 * A GET's `variables` and `extensions` are JSON in the query string; Yoga would throw on bad
 * JSON there (an INTERNAL error), so it is refused first with a 400 in GraphQL's format.
 */
function badParameter(request: Request): Response | undefined {
  const params = new URL(request.url).searchParams;
  for (const name of ["variables", "extensions"]) {
    const value = params.get(name);
    if (!value) continue;
    try {
      JSON.parse(value);
    } catch {
      const error = new GraphQLError(`The ${name} parameter is not valid JSON`, {
        extensions: { code: "BAD_REQUEST" },
      });
      return Response.json({ errors: [error.toJSON()] }, { status: 400 });
    }
  }
  return undefined;
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
 * (405, 406, …) arrive with an empty body; they get the flat `{ error }` body instead. An
 * answer within the ceiling is handed to Elysia as its text, with Yoga's status and headers
 * (which win over the route's, as they did when a Response was merged): one Response is built
 * instead of three.
 */
async function bounded(answer: Response, set: Answer): Promise<Response | string> {
  const text = await answer.text();
  if (answer.status >= 400 && text.trim() === "") {
    const headers = new Headers(answer.headers);
    headers.delete("content-length");
    headers.set("content-type", "application/json");
    const error = answer.statusText || `HTTP ${answer.status}`;
    return new Response(JSON.stringify({ error }), { status: answer.status, headers });
  }
  if (text.length <= GRAPHQL_LIMITS.maxAnswerChars) {
    for (const [name, value] of answer.headers) {
      if (name !== "content-length") set.headers[name] = value;
    }
    set.status = requestErrorStatus(answer.status, text);
    return text;
  }
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  const error = limitError(
    `The answer would exceed ${GRAPHQL_LIMITS.maxAnswerChars} characters; ask for less`,
    "ANSWER_TOO_LARGE",
  );
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ errors: [error.toJSON()] }), { status: 400, headers });
}
