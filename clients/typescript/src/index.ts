export { Orgit } from "./client.js";
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GoneError,
  NotFoundError,
  OrgitConnectionError,
  OrgitError,
  type OrgitErrorInit,
  OrgitTimeoutError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  WebhookVerificationError,
} from "./errors.js";
export type { paths } from "./generated/openapi.js";
export { type ClientOptions, type FetchLike, VERSION } from "./http.js";
export type { QuotaInfo, RateLimitInfo, ResponseMeta } from "./meta.js";
export type * from "./models.js";
export { MAX_OFFSET_LIMIT, MAX_PAGE_LIMIT } from "./pagination.js";
export type { ChangesQuery } from "./resources/changes.js";
export type {
  IdempotentOptions,
  MoveOptions,
  VersionedOptions,
} from "./resources/interface-a.js";
export { type VerifyWebhookOptions, verifyWebhook } from "./webhooks.js";
