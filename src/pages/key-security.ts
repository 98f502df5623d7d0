import { Elysia } from "elysia";
import { randomBase62 } from "../auth/keys.ts";
import { ApiError } from "../errors.ts";
import {
  MyApiKeysDocument,
  MyOrganizationsDocument,
  RotateApiKeyDocument,
  SetApiKeyAllowedIpsDocument,
  SetKeyLifetimePolicyDocument,
} from "../generated/graphql.ts";
import type { PageDeps } from "./deps.ts";
import { FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_PATH, sealFlash } from "./flash.ts";
import { pageResponse, seeOther } from "./html.ts";
import { allowlistEntries, allowlistView, policyView, rotateView } from "./key-security-views.ts";
import { forbiddenPage, messagePage, pageFailSafe } from "./layout.ts";
import { memberSession } from "./member-session.ts";
import { describeProblem } from "./problems.ts";
import { cookie, field, originAllowed, type SignedIn, sessionCsrfValid } from "./request.ts";

const notFoundPage = (what: string) =>
  messagePage(
    404,
    `${what} not found`,
    `This ${what.toLowerCase()} does not exist or is not yours to see.`,
    {
      href: FLASH_PATH,
      label: "Back to your API keys",
    },
  );

const listUrl = (orgId: string, extra = "") =>
  `${FLASH_PATH}?org=${encodeURIComponent(orgId)}${extra}`;

/**
 * The rotation, IP allowlist and lifetime policy forms of the settings screen (docs/settings.md):
 * thin adapters like api-keys.ts, running the domain's operations in-process as the member, so
 * who may do what is decided once, in src/modules/key-security/service.ts.
 */
export const keySecurityPages = ({ services, operations }: PageDeps) => {
  const failSafe = pageFailSafe(services.logger);
  const runAs = (session: SignedIn) => operations.forMember({ userId: session.member.userId });
  const postAllowed = (request: Request, session: SignedIn, body: unknown) =>
    originAllowed(request, services.config.publicBaseUrl) &&
    sessionCsrfValid(session, field(body, "_csrf"));

  async function organization(session: SignedIn, orgId: string | undefined) {
    const { myOrganizations } = await runAs(session)(MyOrganizationsDocument);
    return orgId ? myOrganizations.find((o) => o.id === orgId) : myOrganizations[0];
  }

  /** The member's organization and one of the keys they see there, or the 404 page to answer. */
  async function keyIn(session: SignedIn, orgId: string | undefined, keyId: string) {
    const org = await organization(session, orgId);
    if (!org) return { page: notFoundPage("Organization") };
    const { myApiKeys } = await runAs(session)(MyApiKeysDocument, { organizationId: org.id });
    const key = myApiKeys.find((k) => k.id === keyId);
    return key ? { org, key } : { page: notFoundPage("API key") };
  }

  /** A GET of the signed-in member, or their POST once it passed the Origin and CSRF checks. */
  function guarded(
    post: boolean,
    handler: (session: SignedIn, body: unknown) => Promise<Response>,
  ) {
    return (ctx: { request: Request; body?: unknown; session: SignedIn }) =>
      failSafe(ctx.request, async () => {
        if (post && !postAllowed(ctx.request, ctx.session, ctx.body)) return forbiddenPage();
        return handler(ctx.session, ctx.body);
      });
  }

  const problems = (error: ApiError) =>
    error.details?.length ? error.details.map(describeProblem) : [error.message];

  const signedIn = { signedIn: true } as const;
  return new Elysia({ name: "settings-key-security", detail: { hide: true } })
    .use(memberSession(services))
    .get(
      "/settings/api-keys/:id/rotate",
      (ctx) =>
        guarded(false, async (session) => {
          const found = await keyIn(session, ctx.query.org, ctx.params.id);
          if (!found.key) return found.page;
          return pageResponse(rotateView({ ...session, ...found }));
        })(ctx),
      signedIn,
    )
    .post(
      "/settings/api-keys/:id/rotate",
      (ctx) =>
        guarded(true, async (session, body) => {
          const orgId = field(body, "org");
          const grace = Number(field(body, "gracePeriod") || "86400");
          try {
            const { rotateApiKey } = await runAs(session)(RotateApiKeyDocument, {
              id: ctx.params.id,
              gracePeriod: Number.isSafeInteger(grace) ? grace : -1,
            });
            // the new secret is shown once on the list, as for a key just created (flash.ts)
            const flashId = randomBase62(22);
            await services.sessions.setFlash(session.member.sessionId, flashId);
            const flash = await sealFlash(session.token, {
              id: flashId,
              kind: "created",
              secret: rotateApiKey.secret,
              keyId: rotateApiKey.apiKey.id,
              name: rotateApiKey.apiKey.name,
              organizationId: orgId,
            });
            const flashCookie = cookie(ctx.request, FLASH_COOKIE, flash, {
              maxAge: FLASH_MAX_AGE_S,
            });
            const rotated = `&rotated=${encodeURIComponent(rotateApiKey.apiKey.id)}`;
            return seeOther(listUrl(orgId, rotated), [flashCookie]);
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            const found = await keyIn(session, orgId, ctx.params.id);
            if (!found.key || error.code === "NOT_FOUND")
              return found.page ?? notFoundPage("API key");
            const view = rotateView({ ...session, ...found, errors: problems(error) });
            return pageResponse(view, { status: error.status });
          }
        })(ctx),
      signedIn,
    )
    .get(
      "/settings/api-keys/:id/allowlist",
      (ctx) =>
        guarded(false, async (session) => {
          const found = await keyIn(session, ctx.query.org, ctx.params.id);
          if (!found.key) return found.page;
          return pageResponse(allowlistView({ ...session, ...found }));
        })(ctx),
      signedIn,
    )
    .post(
      "/settings/api-keys/:id/allowlist",
      (ctx) =>
        guarded(true, async (session, body) => {
          const orgId = field(body, "org");
          const value = field(body, "allowedIps");
          try {
            await runAs(session)(SetApiKeyAllowedIpsDocument, {
              id: ctx.params.id,
              allowedIps: allowlistEntries(value),
            });
            return seeOther(listUrl(orgId, "&allowlist=saved"));
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            const found = await keyIn(session, orgId, ctx.params.id);
            if (!found.key || error.code === "NOT_FOUND")
              return found.page ?? notFoundPage("API key");
            const view = allowlistView({ ...session, ...found, value, errors: problems(error) });
            return pageResponse(view, { status: error.status });
          }
        })(ctx),
      signedIn,
    )
    .get(
      "/settings/api-keys/policy",
      (ctx) =>
        guarded(false, async (session) => {
          const org = await organization(session, ctx.query.org);
          if (!org) return notFoundPage("Organization");
          return pageResponse(policyView({ ...session, org }));
        })(ctx),
      signedIn,
    )
    .post(
      "/settings/api-keys/policy",
      (ctx) =>
        guarded(true, async (session, body) => {
          const org = await organization(session, field(body, "org"));
          if (!org) return notFoundPage("Organization");
          const value = field(body, "maxKeyLifetimeDays").trim();
          const days = value === "" ? null : Number(value);
          try {
            await runAs(session)(SetKeyLifetimePolicyDocument, {
              organizationId: org.id,
              maxKeyLifetimeDays: days !== null && Number.isSafeInteger(days) ? days : 0,
            });
            return seeOther(listUrl(org.id, "&policy=saved"));
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            const view = policyView({ ...session, org, value, errors: problems(error) });
            return pageResponse(view, { status: error.status });
          }
        })(ctx),
      signedIn,
    );
};
