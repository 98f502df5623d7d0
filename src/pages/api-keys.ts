import { Elysia } from "elysia";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { ApiError } from "../errors.ts";
import {
  CreateMyApiKeyDocument,
  type CreateMyApiKeyInput,
  MyApiKeysDocument,
  MyOrganizationsDocument,
  RevokeApiKeyDocument,
} from "../graphql/generated.ts";
import { apiKeysView, type FormState, revokeView } from "./api-keys-views.ts";
import { FLASH_COOKIE, FLASH_MAX_AGE_S, FLASH_PATH, openFlash, sealFlash } from "./flash.ts";
import { pageResponse, seeOther } from "./html.ts";
import { messagePage, pageFailSafe } from "./layout.ts";
import {
  clearCookie,
  cookie,
  field,
  fields,
  originAllowed,
  readCookie,
  type SignedIn,
  sessionCsrfValid,
  signedIn,
} from "./request.ts";
import type { PageDeps } from "./routes.ts";
import { forbiddenPage } from "./sign-in.ts";

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

/**
 * GET /settings/api-keys and its create and revoke forms: thin adapters that run the domain's
 * GraphQL operations in-process with the signed-in member as principal, so the rules (who sees
 * and revokes which key) live once, in src/modules/settings/service.ts.
 */
export const apiKeyPages = ({ services, operations }: PageDeps) => {
  const { config } = services;
  const failSafe = pageFailSafe(services.logger);
  const runAs = (session: SignedIn) => operations.forMember({ userId: session.member.userId });

  /** Without a (live) session: to sign-in, saying why when a cookie was there. */
  const toLogin = (request: Request) =>
    readCookie(request, SESSION_COOKIE)
      ? seeOther("/login?expired", [clearCookie(request, SESSION_COOKIE)])
      : seeOther("/login");

  async function organization(session: SignedIn, wanted: string | undefined) {
    const { myOrganizations: orgs } = await runAs(session)(MyOrganizationsDocument);
    const org = wanted ? orgs.find((o) => o.id === wanted) : orgs[0];
    return { orgs, org };
  }

  async function listPage(
    request: Request,
    session: SignedIn,
    orgId: string | undefined,
    extra: { form?: FormState; notice?: string; status?: number; revoked?: string } = {},
  ) {
    const { orgs, org } = await organization(session, orgId);
    if (orgs.length === 0) {
      return messagePage(
        200,
        "No organization",
        "You are not a member of any organization any more, so you have no API keys here.",
        { href: "/login", label: "Sign-in page" },
      );
    }
    if (!org) return notFoundPage("Organization");
    const { myApiKeys: keys } = await runAs(session)(MyApiKeysDocument, {
      organizationId: org.id,
    });
    const cookies: string[] = [];
    let created: { name: string; secret: string } | undefined;
    const sealed = readCookie(request, FLASH_COOKIE);
    if (sealed) {
      // shown once: whatever happens next, the cookie is gone
      cookies.push(clearCookie(request, FLASH_COOKIE, FLASH_PATH));
      const flash = await openFlash(session.token, sealed);
      if (flash && flash.organizationId === org.id) created = flash;
    }
    const revoked = extra.revoked ? keys.find((k) => k.id === extra.revoked) : undefined;
    const notice =
      extra.notice ??
      (revoked ? `Key “${revoked.name}” revoked. It is refused from now on.` : undefined);
    const body = apiKeysView({
      member: session.member,
      csrf: session.csrf,
      orgs,
      org,
      keys,
      created,
      notice,
      form: extra.form,
    });
    return pageResponse(body, { status: extra.status ?? 200, cookies });
  }

  const postAllowed = (request: Request, session: SignedIn, body: unknown) =>
    originAllowed(request, config.publicBaseUrl) && sessionCsrfValid(session, field(body, "_csrf"));

  return new Elysia({ name: "settings-api-keys", detail: { hide: true } })
    .get("/settings", () => seeOther(FLASH_PATH))
    .get("/settings/api-keys", ({ request, query }) =>
      failSafe(request, async () => {
        const session = await signedIn(services, request);
        if (!session) return toLogin(request);
        return listPage(request, session, query.org, { revoked: query.revoked });
      }),
    )
    .post("/settings/api-keys", ({ request, body }) =>
      failSafe(request, async () => {
        const session = await signedIn(services, request);
        if (!session) return toLogin(request);
        if (!postAllowed(request, session, body)) return forbiddenPage();
        const orgId = field(body, "org");
        const form: FormState = {
          name: field(body, "name"),
          scopes: fields(body, "scopes"),
          expiration: field(body, "expiration"),
        };
        try {
          // a field left out is refused by GraphQL's variable coercion, shown on the form below
          const input = {
            organizationId: orgId,
            name: form.name,
            scopes: form.scopes,
            expiresIn: form.expiration,
          } as CreateMyApiKeyInput;
          const { createMyApiKey } = await runAs(session)(CreateMyApiKeyDocument, { input });
          const flash = await sealFlash(session.token, {
            secret: createMyApiKey.secret,
            keyId: createMyApiKey.apiKey.id,
            name: createMyApiKey.apiKey.name,
            organizationId: orgId,
          });
          const flashCookie = cookie(request, FLASH_COOKIE, flash, {
            path: FLASH_PATH,
            maxAge: FLASH_MAX_AGE_S,
          });
          return seeOther(`${FLASH_PATH}?org=${encodeURIComponent(orgId)}`, [flashCookie]);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          if (error.code === "NOT_FOUND") return notFoundPage("Organization");
          const errors = error.details?.length
            ? error.details.map(describeProblem)
            : [error.message];
          return listPage(request, session, orgId, {
            form: { ...form, errors },
            status: error.status,
          });
        }
      }),
    )
    .get("/settings/api-keys/:id/revoke", ({ request, params, query }) =>
      failSafe(request, async () => {
        const session = await signedIn(services, request);
        if (!session) return toLogin(request);
        const { org } = await organization(session, query.org);
        if (!org) return notFoundPage("Organization");
        const { myApiKeys: keys } = await runAs(session)(MyApiKeysDocument, {
          organizationId: org.id,
        });
        const key = keys.find((k) => k.id === params.id);
        if (!key) return notFoundPage("API key");
        return pageResponse(revokeView({ member: session.member, csrf: session.csrf, org, key }));
      }),
    )
    .post("/settings/api-keys/:id/revoke", ({ request, params, body }) =>
      failSafe(request, async () => {
        const session = await signedIn(services, request);
        if (!session) return toLogin(request);
        if (!postAllowed(request, session, body)) return forbiddenPage();
        try {
          await runAs(session)(RevokeApiKeyDocument, { id: params.id });
        } catch (error) {
          if (error instanceof ApiError && error.code === "NOT_FOUND")
            return notFoundPage("API key");
          throw error;
        }
        const org = encodeURIComponent(field(body, "org"));
        return seeOther(`${FLASH_PATH}?org=${org}&revoked=${encodeURIComponent(params.id)}`);
      }),
    );
};

const FIELD_NAMES: Record<string, string> = {
  name: "Name",
  scopes: "Scopes",
  expiresIn: "Expiration",
};

/** `input.scopes.2: Unknown scope: x` → `Scopes: Unknown scope: x`. */
function describeProblem(detail: { path: string[]; message: string }): string {
  const name = detail.path.find((p) => p in FIELD_NAMES);
  return name ? `${FIELD_NAMES[name]}: ${detail.message}` : detail.message;
}
