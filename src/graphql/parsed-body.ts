import type { Plugin } from "graphql-yoga";

/** Bodies the route already read and parsed, by the body-less Request it hands Yoga. */
const parsedBodies = new WeakMap<Request, Record<string, unknown>>();

/**
 * A POST whose JSON body the route's parser already read (size-limited) and parsed to an
 * object, as a Request for Yoga without the body: `parsedBodyPlugin` gives Yoga the object
 * itself. Writing it out again and having Yoga read it through a stream (and a size-limiting
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

/**
 * Yoga's request parser for those requests: the object, as Yoga's JSON parser would have
 * answered it. Registered after Yoga's own parsers, so it is the one chosen; Yoga's body-size
 * check only wraps a request that has a body, and these have none.
 */
export const parsedBodyPlugin = (): Plugin => ({
  onRequestParse({ request, setRequestParser }) {
    const body = parsedBodies.get(request);
    if (body) setRequestParser(() => body);
  },
});
