import { Elysia } from "elysia";
import { randomBase62 } from "../auth/keys.ts";
import { ApiError } from "../errors.ts";
import {
  CreateMyApiKeyDocument,
  type CreateMyApiKeyInput,
  MyApiKeysDocument,
  MyOrganizationsDocument,
  RevokeApiKeyDocument,
} from "../generated/graphql.ts";
import { apiKeysView, type FormState, revokeView } from "./api-keys-views.ts";
import type { PageDeps } from "./deps.ts";
import {
  FLASH_COOKIE,
  FLASH_MAX_AGE_S,
  FLASH_PATH,
  type Flash,
  openFlash,
  sealFlash,
} from "./flash.ts";
import { pageResponse, seeOther } from "./html.ts";
import { allowlistEntries, rotatedNotice, savedNotice } from "./key-security-views.ts";
import { forbiddenPage, messagePage, pageFailSafe } from "./layout.ts";
import { memberSession } from "./member-session.ts";
import { describeProblem } from "./problems.ts";
import {
  clearCookie,
  cookie,
  field,
  fields,
  originAllowed,
  readCookie,
  type SignedIn,
  sessionCsrfValid,
} from "./request.ts";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
  const { config, sessions } = services;
  const failSafe = pageFailSafe(services.logger);
  const runAs = (session: SignedIn) => operations.forMember({ userId: session.member.userId });

  async function organization(session: SignedIn, wanted: string | undefined) {
    const { myOrganizations: orgs } = await runAs(session)(MyOrganizationsDocument);
    const org = wanted ? orgs.find((o) => o.id === wanted) : orgs[0];
    return { orgs, org };
  }

  /** The flash of the POST before, once: the cookie is cleared, the session's id consumed. */
  async function takeFlash(
    request: Request,
    session: SignedIn,
    orgId: string,
    cookies: string[],
  ): Promise<Flash | undefined> {
    const sealed = readCookie(request, FLASH_COOKIE);
    if (!sealed) return undefined;
    cookies.push(clearCookie(request, FLASH_COOKIE));
    const flash = await openFlash(session.token, sealed);
    if (!flash || flash.organizationId !== orgId) return undefined;
    return (await sessions.takeFlash(session.member.sessionId, flash.id)) ? flash : undefined;
  }

  /** Sets the session's flash id and returns the cookie that carries the message. */
  async function flashCookie(
    request: Request,
    session: SignedIn,
    flash: DistributiveOmit<Flash, "id">,
  ) {
    const id = randomBase62(22);
    await sessions.setFlash(session.member.sessionId, id);
    const sealed = await sealFlash(session.token, { ...flash, id } as Flash);
    return cookie(request, FLASH_COOKIE, sealed, { maxAge: FLASH_MAX_AGE_S });
  }

  async function listPage(
    request: Request,
    session: SignedIn,
    orgId: string | undefined,
    extra: { form?: FormState; notice?: string; status?: number; rotated?: string } = {},
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
    const flash = await takeFlash(request, session, org.id, cookies);
    const created = flash?.kind === "created" ? flash : undefined;
    const notice =
      extra.notice ??
      (flash?.kind === "revoked"
        ? `Key “${flash.name}” revoked. It is refused from now on.`
        : undefined) ??
      (created && extra.rotated === created.keyId ? rotatedNotice(created.name) : undefined);
    const body = apiKeysView({
      member: session.member,
      csrf: session.csrf,
      orgs,
      org,
      keys,
      created,
      notice,
      form: extra.form,
      now: services.now(),
    });
    return pageResponse(body, { status: extra.status ?? 200, cookies });
  }

  const postAllowed = (request: Request, session: SignedIn, body: unknown) =>
    originAllowed(request, config.publicBaseUrl) && sessionCsrfValid(session, field(body, "_csrf"));

  return new Elysia({ name: "settings-api-keys", detail: { hide: true } })
    .use(memberSession(services))
    .get("/settings", () => seeOther(FLASH_PATH))
    .get(
      "/settings/api-keys",
      ({ request, query, session }) =>
        failSafe(request, () =>
          listPage(request, session, query.org, {
            rotated: query.rotated,
            notice: savedNotice(query),
          }),
        ),
      { signedIn: true },
    )
    .post(
      "/settings/api-keys",
      ({ request, body, session }) =>
        failSafe(request, async () => {
          if (!postAllowed(request, session, body)) return forbiddenPage();
          const orgId = field(body, "org");
          const form: FormState = {
            name: field(body, "name"),
            scopes: fields(body, "scopes"),
            expiration: field(body, "expiration"),
            allowedIps: field(body, "allowedIps"),
          };
          try {
            // a field left out is refused by GraphQL's variable coercion, shown on the form below
            const input = {
              organizationId: orgId,
              name: form.name,
              scopes: form.scopes,
              expiresIn: form.expiration,
              allowedIps: allowlistEntries(form.allowedIps ?? ""),
            } as CreateMyApiKeyInput;
            const { createMyApiKey } = await runAs(session)(CreateMyApiKeyDocument, { input });
            const flash = await flashCookie(request, session, {
              kind: "created",
              secret: createMyApiKey.secret,
              keyId: createMyApiKey.apiKey.id,
              name: createMyApiKey.apiKey.name,
              organizationId: orgId,
            });
            return seeOther(`${FLASH_PATH}?org=${encodeURIComponent(orgId)}`, [flash]);
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
      { signedIn: true },
    )
    .get(
      "/settings/api-keys/:id/revoke",
      ({ request, params, query, session }) =>
        failSafe(request, async () => {
          const { org } = await organization(session, query.org);
          if (!org) return notFoundPage("Organization");
          const { myApiKeys: keys } = await runAs(session)(MyApiKeysDocument, {
            organizationId: org.id,
          });
          const key = keys.find((k) => k.id === params.id);
          if (!key) return notFoundPage("API key");
          return pageResponse(revokeView({ member: session.member, csrf: session.csrf, org, key }));
        }),
      { signedIn: true },
    )
    .post(
      "/settings/api-keys/:id/revoke",
      ({ request, params, body, session }) =>
        failSafe(request, async () => {
          if (!postAllowed(request, session, body)) return forbiddenPage();
          let revoked: { id: string; name: string };
          try {
            ({ revokeApiKey: revoked } = await runAs(session)(RevokeApiKeyDocument, {
              id: params.id,
            }));
          } catch (error) {
            if (error instanceof ApiError && error.code === "NOT_FOUND")
              return notFoundPage("API key");
            throw error;
          }
          const org = field(body, "org");
          // the notice rides on a flash: a crafted ?revoked= link announces nothing
          const flash = await flashCookie(request, session, {
            kind: "revoked",
            keyId: revoked.id,
            name: revoked.name,
            organizationId: org,
          });
          return seeOther(`${FLASH_PATH}?org=${encodeURIComponent(org)}`, [flash]);
        }),
      { signedIn: true },
    );
};
