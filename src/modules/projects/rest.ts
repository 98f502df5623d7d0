import { Elysia, t } from "elysia";
import { ApiError, validationFailed } from "../../errors.ts";
import {
  CreateProjectDocument,
  DeleteProjectDocument,
  GetProjectDocument,
  ListProjectsDocument,
  UpdateProjectDocument,
} from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, ErrorSchema } from "../../http/error-schemas.ts";
import { idempotent } from "../../http/idempotency.ts";
import { listAnswer } from "../../http/links.ts";
import { ResponseInt } from "../../http/list-schemas.ts";
import { PROJECT_LIMITS, projectPage } from "./service.ts";

const { name: N, description: D, page: P, limit: L } = PROJECT_LIMITS;

// Lengths are checked by the domain (counting characters, not UTF-16 units), so REST and
// GraphQL refuse exactly the same input; the schemas here check types and document bounds.
const nameField = t.String({ description: `${N.min} to ${N.max} characters; trimmed` });
const descriptionField = t.String({ description: `up to ${D.max} characters` });
const Timestamp = t.String({ format: "date-time" });

const ProjectCreated = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    description: t.String(),
    createdAt: Timestamp,
  },
  { title: "ProjectCreated" },
);
const Project = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    description: t.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: "Project" },
);
const ProjectListItem = t.Object(
  { id: t.String({ format: "uuid" }), name: t.String(), createdAt: Timestamp },
  { title: "ProjectListItem" },
);
const ProjectList = t.Object(
  {
    data: t.Array(ProjectListItem, { description: "newest first; id breaks ties" }),
    pagination: t.Object(
      {
        page: ResponseInt(),
        limit: ResponseInt(),
        total: ResponseInt({ description: "projects in the organization" }),
      },
      { title: "PagePagination" },
    ),
  },
  { title: "ProjectList" },
);
const Deleted = t.Object(
  { success: t.Boolean(), message: t.String({ examples: ["Project deleted"] }) },
  { title: "ProjectDeleted" },
);

const invalid = {
  400: t.Composite([ErrorSchema], { description: "Validation failed, with details" }),
};
const missing = {
  404: t.Composite([ErrorSchema], {
    description: "no such project in the caller's organization (malformed ids included)",
  }),
};
const IdParams = t.Object({ id: t.String({ description: "project id (uuid)" }) });

/**
 * Domain validation names fields inside the GraphQL `input` argument; a REST body is that
 * input itself, so the leading "input" is dropped (an empty path names the body).
 */
async function restPaths<T>(promise: Promise<T>): Promise<T> {
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

/** Interface B projects under /api: thin adapters over the project GraphQL operations. */
export const projectRoutes = (deps: RestDeps) =>
  new Elysia({ prefix: "/api/projects", tags: ["projects"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "",
      async ({ run, query, request, set }) => {
        projectPage(query); // the ranges, before GraphQL's 32-bit Int
        const { projects } = await run(ListProjectsDocument, query);
        return listAnswer(deps.publicBaseUrl, request, set.headers, projects);
      },
      {
        // Ranges are checked by projectPage, not typebox: Elysia reports a coerced query
        // number's range failure without the parameter's name.
        query: t.Object({
          page: t.Optional(t.Integer({ description: `${P.min} or more; default ${P.default}` })),
          limit: t.Optional(
            t.Integer({ description: `${L.min} to ${L.max}; default ${L.default}` }),
          ),
          after: t.Optional(
            t.String({
              description:
                'cursor of the previous page (the Link header\'s rel="next"), instead of page',
            }),
          ),
        }),
        response: { 200: ProjectList, ...invalid, ...authErrorResponses },
        detail: {
          summary: "List projects",
          description:
            "Scope projects:read and permission projects.view. Newest first. page ≥ 1 (default 1), " +
            "limit 1 to 100 (default 10); outside the range → 400.",
        },
      },
    )
    .post(
      "",
      (ctx) =>
        idempotent(deps.idempotency, ctx, async () => {
          const created = await restPaths(
            ctx.run(CreateProjectDocument, {
              input: ctx.body,
            }),
          );
          // GraphQL results are null-prototype objects, which Drizzle cannot store as JSON
          return { status: 201, body: { ...created.createProject } };
        }),
      {
        body: t.Object({ name: nameField, description: t.Optional(descriptionField) }),
        headers: t.Object({
          "idempotency-key": t.Optional(
            t.String({
              description: "same key and body within 24 h replays the first answer (1–255 ASCII)",
            }),
          ),
        }),
        response: {
          201: ProjectCreated,
          ...invalid,
          409: t.Composite([ErrorSchema], {
            description: "Idempotency-Key reused with a different body",
          }),
          ...authErrorResponses,
        },
        detail: {
          summary: "Create a project",
          description:
            'Scope projects:write and permission projects.manage. `description` defaults to "". ' +
            "Emits project.created. Send `Idempotency-Key` to make retries safe.",
        },
      },
    )
    .get(
      "/:id",
      async ({ run, params }) => (await run(GetProjectDocument, { id: params.id })).project,
      {
        params: IdParams,
        response: { 200: Project, ...missing, ...authErrorResponses },
        detail: {
          summary: "Read a project",
          description: "Scope projects:read and permission projects.view.",
        },
      },
    )
    .patch(
      "/:id",
      async ({ run, params, body }) =>
        (
          await restPaths(
            run(UpdateProjectDocument, {
              id: params.id,
              input: body,
            }),
          )
        ).updateProject,
      {
        params: IdParams,
        body: t.Object({ name: t.Optional(nameField), description: t.Optional(descriptionField) }),
        response: { 200: Project, ...invalid, ...missing, ...authErrorResponses },
        detail: {
          summary: "Update a project",
          description:
            "Scope projects:write and permission projects.manage. Give name, description or both; " +
            "answers the whole project. Emits project.updated.",
        },
      },
    )
    .delete(
      "/:id",
      async ({ run, params }) =>
        (await run(DeleteProjectDocument, { id: params.id })).deleteProject,
      {
        params: IdParams,
        response: { 200: Deleted, ...missing, ...authErrorResponses },
        detail: {
          summary: "Delete a project",
          description:
            "Scope projects:write and permission projects.manage. Emits project.deleted with the " +
            "project as it was.",
        },
      },
    );
