/**
 * What the http layer asks of the rate limits and the daily quota: one question per request,
 * in plain facts (which surface, which client, which key), answered with a verdict. Nothing
 * here knows about Elysia, the Request or a URL: the surfaces are declared by the http floor
 * (src/http/surfaces.ts) and the bucket sizes come from configuration. `createLimits`
 * (create.ts) builds the real ones; `noLimits` limits nothing (the benchmark's baseline,
 * `createApp({ limits: false })`), so `services.limits` always exists.
 */
import type { Plan } from "../auth/permissions.ts";
import { type ApiError, asApiError } from "../errors.ts";

/** Response headers the limits write into (Elysia's `set.headers`, or a plain object). */
export type Headers = Record<string, string | number>;

/**
 * A result now, or later when Redis or the database is involved. The in-process steady state
 * stays synchronous: every request passes here, and each avoided await is a microtask saved.
 */
export type Step<T> = T | Promise<T>;
export const andThen = <T, U>(step: Step<T>, next: (value: T) => Step<U>): Step<U> =>
  step instanceof Promise ? step.then(next) : next(step);

/**
 * The answer to a request: undefined when it may go on, or the 429 to answer (an ApiError with
 * its body and its Retry-After header). Either way the rate-limit and quota headers are written
 * into the headers handed in, so every answer carries them.
 */
export type Verdict = ApiError | undefined;

/** A bucket a client draws from: its IP bucket, or the client's burst bucket. */
export type ClientBucket = "ip" | "burst";
/** A bucket an authenticated request draws from; `key` and `burst` are the key's, `plan` its organization's. */
export type KeyedBucket = "ip" | "key" | "burst" | "plan";

/**
 * Which limits a kind of request meets, declared by the http floor once per surface (an
 * interface, a route family); the limits build each surface's policies once, when first asked.
 * Order is header order: `X-RateLimit-*` shows the bucket closest to exhaustion among them.
 */
export interface Surface {
  /** what a request draws when it has no authenticated key (none sent, or it never reached authentication) */
  readonly anonymous: readonly ClientBucket[];
  /** what an authenticated key draws, in one limiter call (one Redis script) */
  readonly keyed: readonly KeyedBucket[];
  /** the key organization's daily quota: counted, reported without counting, or not at all */
  readonly quota: "count" | "peek" | "none";
  /** what a failed authentication draws (the failed-authentication throttle) */
  readonly failed: readonly ClientBucket[];
}

/** The authenticated key's facts the limits use (a Principal has them). */
export interface KeyHolder {
  readonly apiKey: { readonly id: string };
  readonly organization: QuotaOwner;
}

/** An organization's plan and daily-quota settings. */
export interface QuotaOwner {
  readonly id: string;
  readonly plan: Plan;
  readonly dailyQuota: number | null;
  readonly unlimitedQuota: boolean;
}

/** A refused credential: any 401 (what counts as a failed authentication unless told otherwise). */
export const isAuthFailure = (error: unknown) => asApiError(error)?.status === 401;

/**
 * `client` in every call is the client as the limits count it: its IPv4 address, or the /64 of
 * its IPv6 address (docs/limits.md), as the http floor's `clientNetwork` gives it.
 */
export interface Limits {
  /**
   * The request's question: `key` undefined draws the surface's `anonymous` buckets, an
   * authenticated key its `keyed` buckets and then the daily quota. A refused request takes
   * nothing from any bucket or the quota.
   */
  limit(
    surface: Surface,
    client: string,
    key: KeyHolder | undefined,
    headers: Headers,
  ): Step<Verdict>;
  /**
   * A refused credential (a missing, invented, expired or revoked key, a wrong operator token,
   * an unknown install link): the surface's `failed` buckets, and their 429 when empty. A bad
   * key never gets a bucket of its own.
   */
  failedAuth(surface: Surface, client: string, headers: Headers): Step<Verdict>;
  /**
   * Before a credential is looked up: the per-IP 429 of a client whose IP bucket refused a
   * moment ago (nothing is drawn), so a guesser costs no lookup.
   */
  blocked(client: string, headers: Headers): Verdict;
  /** the daily-quota counter: `sync` writes counts and reads every instance's totals */
  readonly quota: { sync(): Promise<void> };
  /** drops buckets that have refilled completely (on a timer once started) */
  sweep(): void;
  /** buckets held in this process, for tests and diagnostics */
  readonly bucketCount: number;
  /** connects Redis, starts the quota and sweep timers */
  start(): Promise<void>;
  /** stops the timers and writes the last quota counts (graceful shutdown) */
  stop(): Promise<void>;
}

const nothing = () => undefined;
const done = async () => {};

/** Limits nothing and writes no header. */
export const noLimits: Limits = {
  limit: nothing,
  failedAuth: nothing,
  blocked: nothing,
  quota: { sync: done },
  sweep: nothing,
  bucketCount: 0,
  start: done,
  stop: done,
};
