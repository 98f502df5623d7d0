import { Elysia, t } from "elysia";
import { HealthDocument, WhoamiDocument } from "../../generated/graphql.ts";
import { apiKeyAuth, type RestDeps } from "../../http/auth.ts";
import { authErrorResponses } from "../../http/error-schemas.ts";

const Whoami = t.Object(
  {
    organization: t.Object({ id: t.String(), name: t.String() }),
    user: t.Object({ id: t.String(), role: t.String({ description: "effective role" }) }),
    apiKey: t.Object({
      name: t.String(),
      scopes: t.Array(t.String()),
      expiresAt: t.Nullable(t.String({ format: "date-time", description: "null: never expires" })),
    }),
  },
  { title: "Whoami" },
);

const Health = t.Object({ status: t.Literal("ok") }, { title: "Health" });

/** GET /api/v1/whoami and GET /api/v1/health. */
export const identityRoutes = (deps: Pick<RestDeps, "auth">) =>
  new Elysia({ prefix: "/api/v1", tags: ["identity"] })
    .use(apiKeyAuth(deps.auth))
    .get("/whoami", async ({ run }) => (await run(WhoamiDocument)).whoami, {
      response: { 200: Whoami, ...authErrorResponses },
      detail: {
        summary: "Identity of the calling key",
        description: "Any valid key; no scope needed.",
      },
    })
    // the SDL's status is a String; the resolver answers only "ok"
    .get("/health", async ({ run }) => (await run(HealthDocument)).health as typeof Health.static, {
      response: { 200: Health, ...authErrorResponses },
      detail: { summary: "Key validity and quota check" },
    });
