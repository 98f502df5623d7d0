/** The bucket closest to exhaustion, from `X-RateLimit-*`, `RateLimit-Policy` and `RateLimit`. */
export interface RateLimitInfo {
  /** `X-RateLimit-Limit`: the bucket's size */
  limit: number | null;
  /** `X-RateLimit-Remaining`: requests left in it now */
  remaining: number | null;
  /** `X-RateLimit-Reset`: seconds until it is full again */
  reset: number | null;
  /** `RateLimit-Policy`, e.g. `"ip";q=60;w=60, "key";q=600;w=60, "burst";q=10;w=1` */
  policy: string | null;
  /** `RateLimit`, e.g. `"burst";r=9;t=1` */
  raw: string | null;
}

/** The organization's daily quota (`X-Quota-*`); `"unlimited"` on an unlimited organization. */
export interface QuotaInfo {
  limit: number | "unlimited" | null;
  used: number | null;
  remaining: number | "unlimited" | null;
}

/** What every response said besides its body. */
export interface ResponseMeta {
  status: number;
  /** `X-Request-Id`: quote it when reporting a problem */
  requestId: string | null;
  /** null when the answer carries no rate-limit headers (e.g. the install link) */
  rateLimit: RateLimitInfo | null;
  /** null when the answer carries no quota headers (interface B, keyless routes) */
  quota: QuotaInfo | null;
  /** `Idempotent-Replayed: true`: the service answered a stored first response again */
  idempotentReplayed: boolean;
  headers: Headers;
  method: string;
  url: string;
  /** 0 for the first attempt, 1 for the first retry, … */
  attempt: number;
}

function numberOrNull(value: string | null): number | null {
  if (value === null || value.trim() === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

function quotaValue(value: string | null): number | "unlimited" | null {
  return value === "unlimited" ? "unlimited" : numberOrNull(value);
}

export function parseMeta(
  response: Response,
  request: { method: string; url: string; attempt: number },
): ResponseMeta {
  const headers = response.headers;
  const rateHeaders = ["x-ratelimit-limit", "ratelimit-policy", "ratelimit"];
  const quotaHeaders = ["x-quota-limit", "x-quota-used", "x-quota-remaining"];
  return {
    status: response.status,
    requestId: headers.get("x-request-id"),
    rateLimit: rateHeaders.some((name) => headers.has(name))
      ? {
          limit: numberOrNull(headers.get("x-ratelimit-limit")),
          remaining: numberOrNull(headers.get("x-ratelimit-remaining")),
          reset: numberOrNull(headers.get("x-ratelimit-reset")),
          policy: headers.get("ratelimit-policy"),
          raw: headers.get("ratelimit"),
        }
      : null,
    quota: quotaHeaders.some((name) => headers.has(name))
      ? {
          limit: quotaValue(headers.get("x-quota-limit")),
          used: numberOrNull(headers.get("x-quota-used")),
          remaining: quotaValue(headers.get("x-quota-remaining")),
        }
      : null,
    idempotentReplayed: headers.get("idempotent-replayed") === "true",
    headers,
    method: request.method,
    url: request.url,
    attempt: request.attempt,
  };
}
