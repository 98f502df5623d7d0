import { t } from "elysia";
import { ApiError, validationFailed } from "../errors.ts";
import { ErrorSchema } from "./error-schemas.ts";

/**
 * Optimistic concurrency over REST (docs/api.md): answers carry `ETag: "<version>"`, and
 * `If-Match` names the version a change expects. `*` (any current version) and no header mean
 * no expectation: the last write wins. A tag that is no version of ours can never match: 412.
 */
export function expectedVersion(ifMatch: string | null | undefined): number | null {
  if (ifMatch == null) return null;
  const tags = ifMatch.split(",").map((tag) => tag.trim());
  if (tags.includes("*")) return null;
  const versions = tags.map((tag) => /^(?:W\/)?"([1-9][0-9]{0,9})"$/.exec(tag)?.[1]);
  // a list of tags matches when any does; the domain compares one, so more than one is refused
  const [only] = versions;
  if (versions.length !== 1 || only === undefined || Number(only) > 2_147_483_647) {
    throw new ApiError("PRECONDITION_FAILED", "Version mismatch");
  }
  return Number(only);
}

/** Sets `ETag` from an answer's `version` (a record answer, replayed or not). */
export function withETag<T>(set: { headers: Record<string, unknown> }, body: T): T {
  const version = (body as { version?: unknown } | null)?.version;
  if (typeof version === "number") set.headers.etag = `"${version}"`;
  return body;
}

/** The If-Match header in a route's typebox headers schema. */
export const IfMatchHeader = {
  "if-match": t.Optional(
    t.String({
      description:
        'the ETag of the version you read, e.g. "3"; another version → 412 and nothing changes',
    }),
  ),
};

export const versionErrorResponses = {
  404: t.Composite([ErrorSchema], {
    description: "no such record in your organization (or not one you can see)",
  }),
  409: t.Composite([ErrorSchema], {
    description: "`Invalid status transition: <from> → <to>`, or an Idempotency-Key conflict",
  }),
  412: t.Composite([ErrorSchema], {
    description: "`Version mismatch`: If-Match names another version; nothing changed",
  }),
};

/**
 * Domain validation names fields inside GraphQL's `input` argument; a REST body is that input
 * itself, so the leading "input" is dropped (an empty path names the body).
 */
export async function restPaths<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "VALIDATION_FAILED" || !error.details)
      throw error;
    throw validationFailed(
      error.details.map(({ path, message }) => {
        const rest = path[0] === "input" ? path.slice(1) : path;
        return { path: rest.length > 0 ? rest : ["body"], message };
      }),
    );
  }
}
