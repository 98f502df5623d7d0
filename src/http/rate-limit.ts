import { Elysia } from "elysia";
import type { ApiError } from "../errors.ts";
import { andThen, type Headers, type Limits, type Step } from "../limits/limits.ts";
import { pathOf, requestMeta } from "./request-context.ts";

interface Answer {
  status?: number | string;
  headers: Record<string, unknown>;
}

/** A 429 decided before routing: its status, headers and body become the answer. */
function answered(step: Step<ApiError | undefined>, set: Answer) {
  return andThen(step, (refused) => {
    if (!refused) return;
    set.status = refused.status;
    Object.assign(set.headers, refused.headers);
    return refused.body();
  });
}

/**
 * The per-IP step, before routing and authentication, so 401s and unknown routes count too.
 * Registered right after the request context (which resolves the client IP). The limits get
 * the facts they need (the client, the path, whether a credential came) and write the headers.
 */
export const rateLimitPlugin = (limits: Limits) =>
  new Elysia({ name: "rate-limit" })
    .onRequest(({ request, set }) => {
      const path = pathOf(request.url);
      const hasCredential = request.headers.has("authorization");
      const step = limits.beforeAuth(
        requestMeta(request),
        path,
        hasCredential,
        set.headers as Headers,
      );
      if (step === undefined) return; // keyed, or not /api/v1: decided after authentication
      return answered(step, set);
    })
    // errors before authentication (unknown route, malformed body) still count against the
    // IP; unless that refuses the request, the error handler after this hook answers
    .onError({ as: "global" }, ({ request, set }) => settlePendingIp(limits, request, set))
    // a safety net for an /api/v1 route that never authenticates: it counts all the same
    .onAfterHandle({ as: "global" }, ({ request, set }) => settlePendingIp(limits, request, set));

function settlePendingIp(limits: Limits, request: Request, set: Answer) {
  const step = limits.beforeAuthError(requestMeta(request), set.headers as Headers);
  if (step === undefined) return; // the usual case: the IP bucket was drawn with the key's
  return answered(step, set);
}
