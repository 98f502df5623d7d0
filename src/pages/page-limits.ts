import { keylessPageSurface } from "../http/surfaces.ts";
import type { Limits } from "../limits/limits.ts";
import { clientNetworkOf } from "./request.ts";

/**
 * A keyless request that makes the service store something (a passkey ceremony's challenge):
 * one token of the client's per-IP bucket, as GraphiQL draws (docs/limits.md). Beyond it, the
 * per-IP 429 of every other surface, as JSON with `Retry-After`, before anything is stored;
 * undefined when the request may go on.
 */
export async function perIpRefusal(limits: Limits, request: Request) {
  const headers: Record<string, string | number> = {};
  const refused = await limits.limit(
    keylessPageSurface,
    clientNetworkOf(request),
    undefined,
    headers,
  );
  if (!refused) return undefined;
  const answer = new Headers({
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  for (const [name, value] of Object.entries({ ...headers, ...refused.headers })) {
    answer.set(name, String(value));
  }
  return new Response(JSON.stringify(refused.body()), { status: refused.status, headers: answer });
}
