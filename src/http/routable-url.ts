import { peerAddress, setPeerAddress } from "./peer.ts";

/**
 * Elysia (1.4) finds the path by searching for "/" from a fixed offset, 11, which assumes a
 * host of at least 4 characters (`http://abcd/`). With a shorter `Host` (`x`, `db`, `api`, or
 * `x:1`) it routes a path other than the request's: `http://x/zz/api/v1/alerts/ingest` reached
 * ingest while the limiter and the access log read `/zz/api/v1/alerts/ingest`. The service
 * never uses the host of the request URL (links are built from PUBLIC_BASE_URL), so such a
 * request's authority is replaced by `localhost`, and routing, limits, logs and idempotency all
 * read the same path. Everything else passes through untouched (no copy on the usual path).
 */
const ELYSIA_PATH_SEARCH_FROM = 11;

export function routableRequest(request: Request): Request {
  const url = request.url;
  const authority = url.indexOf("//") + 2;
  const pathStart = url.indexOf("/", authority);
  if (pathStart >= ELYSIA_PATH_SEARCH_FROM) return request;
  const rest = pathStart < 0 ? "/" : url.slice(pathStart);
  const routable = new Request(`${url.slice(0, authority)}localhost${rest}`, request);
  return setPeerAddress(routable, peerAddress(request));
}
