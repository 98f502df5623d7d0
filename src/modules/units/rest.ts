import { Elysia, t } from "elysia";
import { ListEquipmentUnitsDocument } from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses, validationErrorResponse } from "../../http/error-schemas.ts";
import { listAnswer } from "../../http/links.ts";
import { envelope, PageQuery } from "../../http/list-schemas.ts";

const Unit = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    parentId: t.Nullable(
      t.String({ format: "uuid", description: "enclosing unit; null at the top" }),
    ),
    createdAt: t.String({ format: "date-time" }),
  },
  { title: "EquipmentUnit" },
);
const UnitList = envelope(Unit, "EquipmentUnitList");

/** GET /api/v1/equipment-units over the EquipmentUnits operation. */
export const unitRoutes = (deps: Pick<RestDeps, "auth" | "publicBaseUrl">) =>
  new Elysia({ prefix: "/api/v1", tags: ["equipment units"] })
    .use(apiKeyAuth(deps.auth))
    .get(
      "/equipment-units",
      async ({ run, query, request, set }) =>
        listAnswer(
          deps.publicBaseUrl,
          request,
          set.headers,
          (await run(ListEquipmentUnitsDocument, query)).equipmentUnits,
        ),
      {
        query: t.Object(PageQuery),
        response: { 200: UnitList, ...validationErrorResponse, ...authErrorResponses },
        detail: {
          summary: "List organizational units",
          description:
            "Scope equipment:read (no role permission beyond API access: units are the " +
            "organization's structure). Pagination envelope, newest first; `limit` 1 to 200 " +
            "(default 50), `offset` ≥ 0.",
        },
      },
    );
