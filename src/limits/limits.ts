/**
 * What the http layer asks of the rate limits and the daily quota, in plain facts: the caller's
 * address, its key and organization, the request path. Nothing here knows about Elysia or the
 * Request. `createLimits` (create.ts) builds the real ones; `noLimits` limits nothing (the
 * benchmark's baseline, `createApp({ limits: false })`), so `services.limits` always exists.
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
 * One request as the limits see it: the client's address, and whether its IP bucket is still
 * to be drawn or was drawn already. The http layer keeps one per request (its request context
 * has these fields) and hands it in at every step; the limits update the two flags.
 */
export interface Caller {
  readonly clientIp: string | undefined;
  /** a keyed /api/v1 request whose IP bucket is drawn together with its key's, after auth */
  ipBucketPending?: boolean;
  /** this request already drew from its IP bucket (a keyless /api/v1 request, a failed auth) */
  ipDrawn?: boolean;
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

/** A refused credential: any 401 (what `throttle` counts unless told otherwise). */
export const isAuthFailure = (error: unknown) => asApiError(error)?.status === 401;

export interface Limits {
  /**
   * The one throttle for guessing, on every surface that takes a credential (API keys on
   * /api/v1, /api and /graphql, the operator token, install links): an address whose IP bucket
   * is empty is refused with the per-IP 429 before the credential is looked up, and every
   * failed attempt takes a token from that bucket (RATE_LIMIT_IP_PER_MIN, shared with every
   * /api/v1 request of the address). Successful attempts draw nothing here. `attempt` looks the
   * credential up and throws when it is refused; `failed` says which of its errors count as a
   * failed authentication (`isAuthFailure` by default; install links also count 404/410).
   */
  throttle<T>(
    caller: Caller | undefined,
    headers: Headers,
    attempt: () => Promise<T>,
    failed?: (error: unknown) => boolean,
  ): Promise<T>;
  /**
   * Before routing: a keyless /api/v1 request (`hasCredential` false, or ingest) is limited at
   * once; the 429 to answer, if any. Keyed ones are decided after authentication.
   */
  beforeAuth(
    caller: Caller | undefined,
    path: string,
    hasCredential: boolean,
    headers: Headers,
  ): Step<ApiError | undefined>;
  /** Before a credential is looked up: the per-IP 429 of an address refused a moment ago. */
  refuseBlocked(caller: Caller | undefined, headers: Headers): ApiError | undefined;
  /** A refused credential, on any surface: one token from the IP bucket; throws its 429. */
  failedAuth(caller: Caller | undefined, headers: Headers): Step<void>;
  /** An /api/v1 request that ended before authentication: its IP bucket is drawn now. */
  beforeAuthError(caller: Caller | undefined, headers: Headers): Step<ApiError | undefined>;
  /** After authentication: per-key buckets and daily quota (A) or the plan limit (B); throws. */
  afterAuth(caller: Caller | undefined, path: string, key: KeyHolder, headers: Headers): Step<void>;
  /** /graphql with an API key: the per-key buckets only; throws the 429. */
  graphql(caller: Caller | undefined, key: KeyHolder, headers: Headers): Step<void>;
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
  throttle: (_caller, _headers, attempt) => attempt(),
  beforeAuth: nothing,
  refuseBlocked: nothing,
  failedAuth: nothing,
  beforeAuthError: nothing,
  afterAuth: nothing,
  graphql: nothing,
  quota: { sync: done },
  sweep: nothing,
  bucketCount: 0,
  start: done,
  stop: done,
};
