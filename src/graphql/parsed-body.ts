import type { Plugin } from "graphql-yoga";

/** Bodies the route already read and parsed, by the body-less Request it hands Yoga. */
const parsedBodies = new WeakMap<Request, Record<string, unknown>>();

/**
 * A POST whose JSON body the route's parser already read (size-limited) and parsed to an
 * object, as a Request for Yoga without the body: Yoga's parser is given the object itself.
 * Writing it out again and having Yoga read it through a stream (and a size-limiting
 * TransformStream) and parse it once more cost every `/graphql` POST tens of microseconds.
 */
export function withParsedBody(
  request: Request,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  const forwarded = new Request(request.url, { method: "POST", headers, signal });
  parsedBodies.set(forwarded, body);
  return forwarded;
}

export const hasParsedBody = (request: Request) => parsedBodies.has(request);

/** What Yoga itself (not its HTTP adapter) answers a request with. */
interface YogaCore {
  handle(request: Request, serverContext: object): Promise<Response> | Response;
}

/**
 * The plugin that gives Yoga's request parser those objects (registered after Yoga's own
 * parsers, so it is the one chosen; Yoga's body-size check only wraps a request that has a
 * body, and these have none), and `handle`: Yoga's own handler, under its HTTP adapter
 * (@whatwg-node/server). The adapter's work for a plain POST is none of the answer's: it
 * copies the context's properties one by one, listens to the request's abort signal through a
 * promise of its own, and runs the request and response hooks that answer other requests
 * (OPTIONS, GraphiQL, `…/health`, other paths) or add CORS headers (for an Origin). The route
 * sends a POST there only when none of that applies (graphql-route.ts, `plainPost`).
 */
export function parsedPosts() {
  let core: YogaCore | undefined;
  const plugin: Plugin = {
    onYogaInit({ yoga }) {
      core = yoga as unknown as YogaCore;
    },
    onRequestParse({ request, setRequestParser }) {
      const body = parsedBodies.get(request);
      if (body) setRequestParser(() => body);
    },
  };
  const handle = (request: Request, context: object) => {
    if (!core) throw new Error("Yoga has not started");
    return core.handle(request, { ...context, waitUntil });
  };
  return { plugin, handle };
}

/** the adapter's `waitUntil` keeps work alive until disposal; nothing here is disposed */
function waitUntil(work: Promise<unknown> | unknown) {
  if (work instanceof Promise) work.catch(() => {});
}
