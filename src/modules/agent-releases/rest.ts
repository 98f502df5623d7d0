import { Elysia, t } from "elysia";
import { ListAgentReleasesDocument } from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, validationErrorResponse } from "../../http/error-schemas.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, oneOf, PageQuery } from "../../http/list-schemas.ts";
import { CHANNEL_LENGTH, RELEASE_PLATFORMS } from "./service.ts";

const Release = t.Object(
  {
    id: t.String({ format: "uuid" }),
    version: t.String({ examples: ["2.3.1"] }),
    platform: t.String({ description: RELEASE_PLATFORMS.join(", ") }),
    architecture: t.String({ examples: ["x86_64", "arm64"] }),
    channel: t.String({ examples: ["stable", "beta"] }),
    releasedAt: t.String({ format: "date-time" }),
    downloadUrl: t.String(),
    sha256: t.String({ description: "hex SHA-256 of the download" }),
  },
  { title: "AgentRelease" },
);
const ReleaseList = envelope(Release, "AgentReleaseList");

/** GET /api/v1/agent-releases over the ListAgentReleases operation. */
export const agentReleaseRoutes = (deps: Pick<RestDeps, "auth" | "publicBaseUrl">) =>
  new Elysia({ prefix: "/api/v1", tags: ["agent releases"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "/agent-releases",
      async ({ run, query, request, set }) =>
        listAnswer(
          deps.publicBaseUrl,
          request,
          set.headers,
          (await run(ListAgentReleasesDocument, query)).agentReleases,
        ),
      {
        query: t.Object({
          ...PageQuery,
          platform: t.Optional(oneOf(RELEASE_PLATFORMS)),
          channel: t.Optional(
            t.String({
              minLength: CHANNEL_LENGTH.min,
              maxLength: CHANNEL_LENGTH.max,
              description: "e.g. stable or beta; an unknown channel lists nothing",
            }),
          ),
        }),
        response: { 200: ReleaseList, ...validationErrorResponse, ...authErrorResponses },
        detail: {
          summary: "List agent releases",
          description:
            "Any key with API access; no scope needed. Releases are " +
            "global, the same for every organization. Filters `platform` and `channel`; " +
            "newest release first; `limit` 1 to 200 (default 50), `offset` ≥ 0.",
        },
      },
    );
