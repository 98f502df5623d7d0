import type { ResponseMeta } from "./meta.js";
import type { ErrorDetail } from "./models.js";

export interface OrgitErrorInit {
  message: string;
  status?: number;
  error?: string;
  details?: ErrorDetail[];
  retryAfter?: number;
  requestId?: string;
  body?: unknown;
  meta?: ResponseMeta;
  cause?: unknown;
}

/**
 * Every error the client throws. `status` is the HTTP status (undefined for network errors),
 * `error` the body's `error` text, `details` its per-field list, `retryAfter` the seconds to wait
 * (body `retryAfter` or `Retry-After`), `requestId` the `X-Request-Id` to quote to support.
 */
export class OrgitError extends Error {
  readonly status: number | undefined;
  readonly error: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;
  readonly body: unknown;
  readonly meta: ResponseMeta | undefined;

  constructor(init: OrgitErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.error = init.error;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
    this.body = init.body;
    this.meta = init.meta;
  }
}

/** 400: validation failed (see `details`), malformed JSON. */
export class BadRequestError extends OrgitError {}
/** 401: key missing, invalid, expired, revoked. */
export class AuthenticationError extends OrgitError {}
/** 403: missing scope or permission, plan without API access, IP not allowed. */
export class PermissionDeniedError extends OrgitError {}
/** 404: unknown resource or route. */
export class NotFoundError extends OrgitError {}
/** 409: Idempotency-Key reused with another body, webhook limit reached, delivery in flight. */
export class ConflictError extends OrgitError {}
/** 410: e.g. `Sync token expired` (start the change feed again without `since`). */
export class GoneError extends OrgitError {}
/** 5xx. */
export class ServerError extends OrgitError {}

/** 429: a rate limit (`retryAfter`), or the daily quota (`isQuota`, `limit`, `used`, `window`). */
export class RateLimitError extends OrgitError {
  readonly isQuota: boolean;
  readonly limit: number | undefined;
  readonly used: number | undefined;
  readonly window: string | undefined;

  constructor(init: OrgitErrorInit) {
    super(init);
    const body = (init.body ?? {}) as Record<string, unknown>;
    this.limit = typeof body.limit === "number" ? body.limit : undefined;
    this.used = typeof body.used === "number" ? body.used : undefined;
    this.window = typeof body.window === "string" ? body.window : undefined;
    this.isQuota = body.error === "API quota exceeded" || this.window !== undefined;
  }
}

/** The request never got an answer: connection refused, reset, DNS failure. No `status`. */
export class OrgitConnectionError extends OrgitError {}
/** No answer within `timeoutMs`. */
export class OrgitTimeoutError extends OrgitConnectionError {}
/** `verifyWebhook` refused a delivery: missing headers, bad signature, stale timestamp. */
export class WebhookVerificationError extends OrgitError {
  constructor(message: string) {
    super({ message });
  }
}

const CLASSES: Record<number, typeof OrgitError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  410: GoneError,
  429: RateLimitError,
};

function describe(status: number, error: string | undefined, details?: ErrorDetail[]): string {
  let text = `${status} ${error ?? "HTTP error"}`;
  if (details?.length) {
    text += `: ${details.map((d) => `${d.path.join(".")}: ${d.message}`).join("; ")}`;
  }
  return text;
}

/** Seconds from `Retry-After` (delay-seconds or an HTTP date), else the body's `retryAfter`. */
export function retryAfterSeconds(headers: Headers, body: unknown): number | undefined {
  const header = headers.get("retry-after");
  if (header !== null && header.trim() !== "") {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) return Math.max(0, seconds);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const fromBody = (body as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof fromBody === "number" ? fromBody : undefined;
}

/** The error for a non-2xx answer: the subclass of its status, or OrgitError. */
export function errorFromResponse(meta: ResponseMeta, body: unknown): OrgitError {
  const status = meta.status;
  const fields = (typeof body === "object" && body !== null ? body : {}) as {
    error?: unknown;
    details?: unknown;
  };
  const error = typeof fields.error === "string" ? fields.error : undefined;
  const details = Array.isArray(fields.details) ? (fields.details as ErrorDetail[]) : undefined;
  const requestId = meta.requestId ?? undefined;
  const suffix = requestId ? ` (request id ${requestId})` : "";
  const Class = CLASSES[status] ?? (status >= 500 ? ServerError : OrgitError);
  return new Class({
    message: describe(status, error, details) + suffix,
    status,
    error,
    details,
    retryAfter: retryAfterSeconds(meta.headers, body),
    requestId,
    body,
    meta,
  });
}
