import { Elysia } from "elysia";
import { databaseUnavailableCode } from "../db/errors.ts";
import { ApiError, asApiError, type ErrorDetail, validationFailed } from "../errors.ts";
import { errorFields, type Logger } from "../logger.ts";
import { requestMeta } from "./request-context.ts";

interface TypeboxIssue {
  path?: string;
  message?: string;
  summary?: string;
  value?: unknown;
  /** the failing schema; a string `error` on it is our own message for the field */
  schema?: { error?: unknown };
}

/** Typebox issues → the contract's `details`, one entry per field, first problem first. */
export function validationDetails(issues: TypeboxIssue[], on: string): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const path = (issue.path ?? "").split("/").filter(Boolean).map(decodePointer);
    const key = path.join("/");
    if (seen.has(key)) continue;
    seen.add(key);
    const missing = issue.value === undefined && path.length > 0;
    details.push({
      path: path.length > 0 ? path : [on],
      message: missing
        ? "Required"
        : typeof issue.schema?.error === "string"
          ? issue.schema.error
          : (issue.summary ?? issue.message ?? "Invalid value"),
    });
  }
  return details;
}

const decodePointer = (part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~");

/** Maps anything a route can throw to `{ error, details? }`; unexpected causes are logged only. */
export const errorHandler = (logger: Logger) =>
  new Elysia({ name: "error-handler" }).onError(
    { as: "global" },
    ({ code, error, set, request }) => {
      let apiError = asApiError(error) ?? asApiError((error as { cause?: unknown })?.cause);
      if (!apiError) {
        if (code === "VALIDATION") {
          const validation = error as unknown as { all: TypeboxIssue[]; type: string };
          apiError = validationFailed(validationDetails(validation.all, validation.type));
        } else if (code === "PARSE") {
          apiError = new ApiError("BAD_REQUEST", "Malformed JSON body");
        } else if (code === "NOT_FOUND") {
          apiError = new ApiError("NOT_FOUND", "Not found");
        } else if (databaseUnavailableCode(error)) {
          // a blip (restart, failover, terminated backend): the transaction rolled back. Only
          // the code is logged: Drizzle's message would carry the query's parameters.
          logger.warn("database unavailable", {
            requestId: requestMeta(request)?.id,
            dbError: databaseUnavailableCode(error),
          });
          apiError = new ApiError(
            "SERVICE_UNAVAILABLE",
            "Service unavailable",
            undefined,
            {},
            {
              "retry-after": "1",
            },
          );
        }
      }
      if (!apiError) {
        logger.error("unhandled error", {
          requestId: requestMeta(request)?.id,
          code,
          ...errorFields(error),
        });
        set.status = 500;
        return { error: "Internal server error" };
      }
      set.status = apiError.status;
      if (apiError.headers) Object.assign(set.headers, apiError.headers);
      return apiError.body();
    },
  );
