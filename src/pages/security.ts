import { Elysia } from "elysia";
import { sha256Hex, timingSafeEqualStrings } from "../auth/keys.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import type { PageDeps } from "./deps.ts";
import { pageResponse, seeOther } from "./html.ts";
import { forbiddenPage, messagePage, pageFailSafe } from "./layout.ts";
import { perIpRefusal } from "./page-limits.ts";
import { FORM_REFUSED, json, NEEDS_SCRIPT } from "./passkey-sign-in.ts";
import {
  clearCookie,
  cookie,
  field,
  originAllowed,
  readCookie,
  type SignedIn,
  sessionCsrfValid,
  signedIn,
} from "./request.ts";
import { removePasskeyView, securityView } from "./security-views.ts";
import { SECURITY } from "./sign-in.ts";

/**
 * What the last form did, carried across the redirect: set by the server only, tied to the
 * session (a value for another session, or made up, shows nothing), cleared when shown.
 */
const NOTICE_COOKIE = "orgit_security_notice";
const NOTICES = { added: "Passkey added.", removed: "Passkey removed." } as const;
type Notice = keyof typeof NOTICES;
const noticeValue = (session: SignedIn, kind: Notice) =>
  `${kind}.${sha256Hex(`notice:${kind}:${session.token}`).slice(0, 32)}`;

function readNotice(request: Request, session: SignedIn): string | undefined {
  const value = readCookie(request, NOTICE_COOKIE) ?? "";
  const kind = value.split(".")[0] as Notice;
  if (!(kind in NOTICES)) return undefined;
  return timingSafeEqualStrings(value, noticeValue(session, kind)) ? NOTICES[kind] : undefined;
}

type AddResult = Awaited<ReturnType<PageDeps["services"]["passkeys"]["add"]>>;
const addErrors = (perMember: number): Record<Exclude<AddResult["kind"], "ok">, string> => ({
  "bad-name": "Give the passkey a name of 1 to 100 characters.",
  expired: "Adding the passkey took too long or was already done. Try again.",
  invalid: "Your browser's answer could not be verified, so no passkey was added. Try again.",
  duplicate: "This passkey is already registered.",
  "too-many": `You have ${perMember} passkeys, the most allowed. Remove one you no longer use first.`,
});

const notFound = () =>
  messagePage(404, "Passkey not found", "This passkey does not exist or is not yours.", {
    href: SECURITY,
    label: "Back to security",
  });

/**
 * GET /settings/security and its forms: the signed-in member's passkeys (add, list, remove).
 * Also open to a session that may only add a passkey (docs/decisions.md §12).
 */
export const securityPages = ({ services }: Pick<PageDeps, "services">) => {
  const { passkeys, sessions, config } = services;
  const failSafe = pageFailSafe(services.logger);
  const ADD_ERRORS = addErrors(passkeys.limits.perMember);
  const member = (request: Request) => signedIn(services, request, { enrollOnly: "allowed" });
  const toLogin = (request: Request) =>
    readCookie(request, SESSION_COOKIE)
      ? seeOther("/login?expired", [clearCookie(request, SESSION_COOKIE)])
      : seeOther("/login");
  const postAllowed = (request: Request, session: SignedIn, body: unknown) =>
    originAllowed(request, config.publicBaseUrl) && sessionCsrfValid(session, field(body, "_csrf"));

  async function page(
    request: Request,
    session: SignedIn,
    extra: { status?: number; error?: string; name?: string } = {},
  ) {
    const notice = readNotice(request, session);
    const body = securityView({
      member: session.member,
      csrf: session.csrf,
      passkeys: await passkeys.list(session.member.userId),
      nameMax: passkeys.limits.nameMax,
      notice,
      ...extra,
    });
    const cookies = readCookie(request, NOTICE_COOKIE)
      ? [clearCookie(request, NOTICE_COOKIE, SECURITY)]
      : [];
    return pageResponse(body, { status: extra.status ?? 200, cookies });
  }

  const withNotice = (request: Request, session: SignedIn, kind: Notice) =>
    seeOther(SECURITY, [
      cookie(request, NOTICE_COOKIE, noticeValue(session, kind), { path: SECURITY, maxAge: 60 }),
    ]);

  return new Elysia({ name: "settings-security", detail: { hide: true } })
    .get(SECURITY, ({ request }) =>
      failSafe(request, async () => {
        const session = await member(request);
        return session ? page(request, session) : toLogin(request);
      }),
    )
    .post(`${SECURITY}/passkeys/options`, ({ request, body }) =>
      failSafe(request, async () => {
        const refused = await perIpRefusal(services.limits, request);
        if (refused) return refused;
        const session = await member(request);
        if (!session) return json(401, { error: "Your session has ended. Sign in again." });
        if (!postAllowed(request, session, body)) return json(403, FORM_REFUSED);
        const options = await passkeys.registrationOptions(session.member);
        return options ? json(200, options) : json(409, { error: ADD_ERRORS["too-many"] });
      }),
    )
    .post(`${SECURITY}/passkeys`, ({ request, body }) =>
      failSafe(request, async () => {
        const session = await member(request);
        if (!session) return toLogin(request);
        if (!postAllowed(request, session, body)) return forbiddenPage();
        const name = field(body, "name");
        if (field(body, "response") === "") {
          return page(request, session, { status: 400, error: NEEDS_SCRIPT, name });
        }
        const result = await passkeys.add(session.member, name, field(body, "response"));
        if (result.kind !== "ok") {
          return page(request, session, { status: 400, error: ADD_ERRORS[result.kind], name });
        }
        if (session.member.enrollOnly) {
          // a password opened this session only to add a passkey: from now on, sign in with it
          await sessions.end(session.token);
          return seeOther("/login?passkey_added", [clearCookie(request, SESSION_COOKIE)]);
        }
        return withNotice(request, session, "added");
      }),
    )
    .get(`${SECURITY}/passkeys/:id/remove`, ({ request, params }) =>
      failSafe(request, async () => {
        const session = await member(request);
        if (!session) return toLogin(request);
        const mine = await passkeys.list(session.member.userId);
        const passkey = mine.find((p) => p.id === params.id);
        if (!passkey) return notFound();
        return pageResponse(
          removePasskeyView({ member: session.member, csrf: session.csrf, passkey }),
        );
      }),
    )
    .post(`${SECURITY}/passkeys/:id/remove`, ({ request, params, body }) =>
      failSafe(request, async () => {
        const session = await member(request);
        if (!session) return toLogin(request);
        if (!postAllowed(request, session, body)) return forbiddenPage();
        if (!(await passkeys.remove(session.member.userId, params.id))) return notFound();
        return withNotice(request, session, "removed");
      }),
    );
};
