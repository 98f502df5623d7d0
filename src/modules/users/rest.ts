import { Elysia, t } from "elysia";
import { ListUsersDocument } from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, validationErrorResponse } from "../../http/error-schemas.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, PageQuery } from "../../http/list-schemas.ts";

const Member = t.Object(
  {
    userId: t.String({ format: "uuid" }),
    role: t.String({ description: "admin, technician or a custom role name" }),
    profile: t.Object({
      firstName: t.String(),
      lastName: t.String(),
      email: t.Optional(
        t.String({ description: "present only when the key owner holds users.manage" }),
      ),
    }),
  },
  { title: "User" },
);
const MemberList = envelope(Member, "UserList");

/** GET /api/v1/users over the ListUsers operation. */
export const memberRoutes = (deps: Pick<RestDeps, "auth" | "publicBaseUrl">) =>
  new Elysia({ prefix: "/api/v1", tags: ["users"] }).use(apiKeyAuth(deps.auth)).get(
    "/users",
    async ({ run, query, request, set }) => {
      const { users } = await run(ListUsersDocument, query);
      // GraphQL answers a withheld email as null; interface A omits the field instead (docs/api.md)
      for (const member of users.data) {
        if (member.profile.email === null) delete (member.profile as { email?: unknown }).email;
      }
      return listAnswer(
        deps.publicBaseUrl,
        request,
        set.headers,
        users,
      ) as typeof MemberList.static;
    },
    {
      query: t.Object(PageQuery),
      response: { 200: MemberList, ...validationErrorResponse, ...authErrorResponses },
      detail: {
        summary: "List organization members",
        description:
          "Scope users:read and permission users.view. Pagination envelope, newest member " +
          "first; `limit` 1 to 200 (default 50), `offset` ≥ 0. `profile.email` appears only " +
          "when the key owner holds users.manage.",
      },
    },
  );
