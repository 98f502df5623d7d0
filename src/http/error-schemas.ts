import { t } from "elysia";
import { ResponseInt } from "./list-schemas.ts";

export const ErrorDetailSchema = t.Object({
  path: t.Array(t.String(), { description: 'names the field, e.g. ["items", "0", "name"]' }),
  message: t.String(),
});

export const ErrorSchema = t.Object(
  {
    error: t.String({ description: "what went wrong, in plain words" }),
    details: t.Optional(t.Array(ErrorDetailSchema)),
  },
  { title: "Error" },
);

/** The 429 bodies (docs/limits.md): rate limits carry `retryAfter`; the daily quota `limit, used, window`. */
export const RateLimitedSchema = t.Object(
  {
    error: t.String({
      description:
        "`Too many requests` (per IP), `API key rate limit exceeded` (per key or burst), `API quota exceeded` (daily quota), `Rate limit exceeded` (interface B plan limit)",
    }),
    retryAfter: t.Optional(ResponseInt({ minimum: 1, description: "seconds; rate limits only" })),
    limit: t.Optional(ResponseInt({ description: "daily quota only" })),
    used: t.Optional(ResponseInt({ description: "daily quota only" })),
    window: t.Optional(t.Literal("24h", { description: "daily quota only" })),
  },
  {
    title: "RateLimited",
    description:
      "With `Retry-After` (whole seconds; 3600 for the daily quota). Every /api/v1 answer carries X-RateLimit-Limit/Remaining/Reset, RateLimit-Policy and RateLimit, and once the key is known X-Quota-Limit/Used/Remaining.",
  },
);

/** Response schemas every authenticated route can answer with besides its own success. */
export const authErrorResponses = {
  401: t.Composite([ErrorSchema], {
    description: "key missing, invalid, expired, revoked, or owner left the organization",
  }),
  403: t.Composite([ErrorSchema], {
    description: "missing scope or permission, plan without API access, or HTTPS required",
  }),
  429: RateLimitedSchema,
  500: t.Composite([ErrorSchema], {
    description: "unexpected server error; the cause is logged with the request id",
  }),
};

/** The 400 of routes that validate a query or body. */
export const validationErrorResponse = {
  400: t.Composite([ErrorSchema], {
    description: "Validation failed, with details naming each field",
  }),
};
