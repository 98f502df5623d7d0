import { Elysia, t } from "elysia";
import { ListGroupsDocument } from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, validationErrorResponse } from "../../http/error-schemas.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, PageQuery, ResponseInt } from "../../http/list-schemas.ts";

const Group = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    description: t.Nullable(t.String()),
    memberCount: ResponseInt({ description: "members still in the organization" }),
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "Group" },
);
const GroupList = envelope(Group, "GroupList");

/** GET /api/v1/groups over the ListGroups operation. */
export const groupRoutes = (deps: Pick<RestDeps, "auth" | "publicBaseUrl">) =>
  new Elysia({ prefix: "/api/v1", tags: ["groups"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "/groups",
      async ({ run, query, request, set }) =>
        listAnswer(
          deps.publicBaseUrl,
          request,
          set.headers,
          (await run(ListGroupsDocument, query)).groups,
        ),
      {
        query: t.Object(PageQuery),
        response: { 200: GroupList, ...validationErrorResponse, ...authErrorResponses },
        detail: {
          summary: "List groups",
          description:
            "Scope users:read and permission users.view. Pagination envelope, newest first; " +
            "`limit` 1 to 200 (default 50), `offset` ≥ 0. `memberCount` counts members who " +
            "still belong to the organization.",
        },
      },
    );
