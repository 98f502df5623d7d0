import { GraphQLError } from "graphql";

/**
 * The closed set of failures the API can answer with, and their HTTP status. REST routes and
 * GraphQL resolvers both throw ApiError; `toHttp` is the one place that turns any error into
 * the contract's flat `{ error, details? }` body.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  /** If-Match / expectedVersion named a version the record no longer has */
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** the database did not answer or dropped the connection; retrying shortly may succeed */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string[];
  message: string;
}

export interface ErrorBody {
  error: string;
  details?: ErrorDetail[];
  [extra: string]: unknown;
}

export class ApiError extends GraphQLError {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** extra top-level fields of the body, e.g. `retryAfter` on a 429 */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message, {
      extensions: { code, status: ERROR_STATUS[code], ...(details ? { details } : {}), ...extra },
    });
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }

  body(): ErrorBody {
    return {
      error: this.message,
      ...(this.details ? { details: this.details } : {}),
      ...this.extra,
    };
  }
}

export const validationFailed = (details: ErrorDetail[]) =>
  new ApiError("VALIDATION_FAILED", "Validation failed", details);
export const unauthenticated = (message: string) => new ApiError("UNAUTHENTICATED", message);
export const forbidden = (message: string) => new ApiError("FORBIDDEN", message);
export const notFound = (message = "Not found") => new ApiError("NOT_FOUND", message);
export const tooManyRequests = (message: string) => new ApiError("RATE_LIMITED", message);
export const versionMismatch = () => new ApiError("PRECONDITION_FAILED", "Version mismatch");
export const invalidTransition = (from: string, to: string) =>
  new ApiError("CONFLICT", `Invalid status transition: ${from} → ${to}`);

/** Finds the ApiError behind a GraphQL error (resolvers' errors arrive wrapped). */
export function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof GraphQLError && error.originalError) return asApiError(error.originalError);
  return undefined;
}
