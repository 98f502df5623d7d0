import { asApiError } from "../errors.ts";
import type { Caller, Headers, Limits } from "./limits.ts";

/** A refused credential: any 401. */
export const isAuthFailure = (error: unknown) => asApiError(error)?.status === 401;

/**
 * The one throttle for guessing, on every surface that takes a credential (API keys on /api/v1,
 * /api and /graphql, the operator token, install links, later the sign-in form): an address
 * whose IP bucket is empty is refused with the per-IP 429 before the credential is looked up,
 * and every failed attempt takes a token from that bucket (RATE_LIMIT_IP_PER_MIN, shared with
 * every /api/v1 request of the address). Successful attempts draw nothing here.
 *
 * `attempt` looks the credential up and throws when it is refused; `failed` says which of its
 * errors count as a failed authentication (401s by default; install links also count 404/410).
 */
export async function throttleAttempt<T>(
  limits: Limits,
  caller: Caller | undefined,
  headers: Headers,
  attempt: () => Promise<T>,
  failed: (error: unknown) => boolean = isAuthFailure,
): Promise<T> {
  const blocked = limits.refuseBlocked(caller, headers);
  if (blocked) throw blocked;
  try {
    return await attempt();
  } catch (error) {
    if (failed(error)) await limits.failedAuth(caller, headers); // throws the 429 when empty
    throw error;
  }
}
