import { Elysia } from "elysia";
import { asApiError } from "../errors.ts";
import {
  type Headers,
  isAuthFailure,
  type KeyHolder,
  type Limits,
  type Step,
  type Verdict,
} from "../limits/limits.ts";
import { type RequestMeta, requestMeta } from "./request-context.ts";
import { type HttpSurface, surfaceOf } from "./surfaces.ts";

interface Answer {
  status?: number | string;
  headers: Record<string, unknown>;
}

/** A 429 decided outside a handler: its status, headers and body become the answer. */
function answer(refused: Verdict, set: Answer) {
  if (!refused) return;
  set.status = refused.status;
  Object.assign(set.headers, refused.headers);
  return refused.body();
}

/** `answer`, once the verdict is known; without a microtask when it is known already. */
function answered(step: Step<Verdict>, set: Answer) {
  return step instanceof Promise ? step.then((refused) => answer(refused, set)) : answer(step, set);
}

/** Throws a refusal; settles without a microtask when the verdict is already known. */
function enforce(step: Step<Verdict>): Step<void> {
  if (step instanceof Promise) {
    return step.then((refused) => {
      if (refused) throw refused;
    });
  }
  if (step) throw step;
}

/** A keyless page's one question (GraphiQL): its surface's anonymous buckets, thrown when refused. */
export const limitPage = (
  limits: Limits,
  surface: HttpSurface,
  meta: RequestMeta | undefined,
  headers: Headers,
): Step<void> => enforce(limits.limit(surface, meta?.client ?? "unknown", undefined, headers));

/**
 * An authenticated key's one question: its buckets and quota on `surface`, thrown when refused.
 * Callers record the principal on `meta` first, so the request counts as asked whatever follows.
 */
export function limitKey(
  limits: Limits,
  surface: HttpSurface,
  meta: RequestMeta | undefined,
  key: KeyHolder,
  headers: Headers,
): Step<void> {
  return enforce(limits.limit(surface, meta?.client ?? "unknown", key, headers));
}

/**
 * The failed-authentication throttle around a credential lookup: a client refused a moment ago
 * gets its 429 before `attempt` runs; an attempt that fails (`failed`, a 401 by default) is
 * the one more question the limits answer, and its 429 replaces the error when the client's
 * buckets are empty. Successful attempts draw nothing here. Settled at once (a value, or a
 * synchronous throw) when `attempt` is: a cached key costs no promise.
 */
export function throttled<T>(
  limits: Limits,
  surface: HttpSurface,
  meta: RequestMeta | undefined,
  headers: Headers,
  attempt: () => T | Promise<T>,
  failed: (error: unknown) => boolean = isAuthFailure,
): T | Promise<T> {
  const client = meta?.client ?? "unknown";
  const blocked = limits.blocked(client, headers);
  if (blocked) throw blocked;
  const onFailure = (error: unknown): never | Promise<never> => {
    if (!failed(error)) throw error;
    const counted = enforce(limits.failedAuth(surface, client, headers));
    if (counted instanceof Promise) {
      return counted.then(() => {
        throw error;
      });
    }
    throw error;
  };
  let result: T | Promise<T>;
  try {
    result = attempt();
  } catch (error) {
    return onFailure(error);
  }
  return result instanceof Promise ? result.catch(onFailure) : result;
}

/**
 * Where the limits meet a request outside authentication. Registered right after the request
 * context (which resolves the client): a keyless /api/v1 request is limited before routing (so
 * 401s and unknown routes count too), and a keyed one whose IP is blocked is refused at once;
 * otherwise authentication asks (`limitKey`, `throttled`). A request that ends with its
 * question unasked asks it then, without a key; its refusal replaces the answer.
 */
export const rateLimitPlugin = (limits: Limits) =>
  new Elysia({ name: "rate-limit" })
    .onRequest(({ request, set }) => {
      const meta = requestMeta(request);
      if (!meta) return; // only an app without the request context (a test's)
      const path = meta.path;
      if (!path.startsWith("/api/v1/")) return; // decided at authentication
      const surface = surfaceOf(path, request.headers.has("authorization"));
      const headers = set.headers as Headers;
      if (surface.beforeRouting)
        return answered(limits.limit(surface, meta.client, undefined, headers), set);
      return answer(limits.blocked(meta.client, headers), set);
    })
    // an error before authentication still counts; unless that refuses the request, the
    // error handler after this hook answers
    .onError({ as: "global" }, ({ request, set, error }) =>
      askUnanswered(limits, request, set, error),
    )
    .onAfterHandle({ as: "global" }, ({ request, set }) => askUnanswered(limits, request, set));

/**
 * A request that ends with its question unasked asks it now, without a key: one whose
 * credential never reached authentication (an unknown route, a malformed body, a route that
 * takes no key). One that authenticated (its principal, or the operator, is known) or failed to
 * (a 401, or the limits' own 429) was answered already, as was a keyless /api/v1 request.
 */
function askUnanswered(limits: Limits, request: Request, set: Answer, error?: unknown) {
  const meta = requestMeta(request);
  if (!meta || meta.principal || meta.operator) return;
  const status = asApiError(error)?.status;
  if (status === 401 || status === 429) return;
  const surface = surfaceOf(meta.path, request.headers.has("authorization"));
  if (surface.beforeRouting) return;
  return answered(limits.limit(surface, meta.client, undefined, set.headers as Headers), set);
}
