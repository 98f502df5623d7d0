import { Elysia } from "elysia";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { ApiError } from "../errors.ts";
import type { PageDeps } from "./deps.ts";
import { pageResponse, seeOther } from "./html.ts";
import { forbiddenPage, HOME, messagePage, pageFailSafe } from "./layout.ts";
import {
  clearCookie,
  clientIpOf,
  clientNetworkOf,
  cookie,
  field,
  originAllowed,
  preSessionCsrf,
  preSessionCsrfValid,
  readCookie,
  sessionCsrfValid,
  signedIn,
} from "./request.ts";
import { inviteView, loginView } from "./sign-in-views.ts";

export const SECURITY = "/settings/security";
const PASSKEY_REQUIRED =
  "Your organization requires administrators to sign in with a passkey. Use “Sign in with a passkey” below.";
const INVITE_TOKEN = /^[0-9A-Za-z]{43}$/;

function loginPage(status: number, view: Parameters<typeof loginView>[0]) {
  return pageResponse(loginView(view), { status });
}

/** The sign-in throttle's 429 (docs/security.md), for a password or a passkey alike. */
export function throttledLoginPage(
  view: Omit<Parameters<typeof loginView>[0], "error">,
  retryAfterS: number,
) {
  const response = loginPage(429, {
    ...view,
    error: "Too many failed sign-ins. Wait 15 minutes, then try again.",
  });
  response.headers.set("retry-after", String(retryAfterS));
  return response;
}

/** GET/POST /login, POST /logout, GET/POST /invite/:token. */
export const signInPages = ({ services }: Pick<PageDeps, "services">) => {
  const { accounts, sessions, config } = services;
  const failSafe = pageFailSafe(services.logger);
  const sessionCookie = (request: Request, token: string) => cookie(request, SESSION_COOKIE, token);

  const invitationGone = (kind: "used" | "expired" | "unknown") =>
    kind === "unknown"
      ? messagePage(
          404,
          "Invitation not found",
          "This invitation link is not valid. Check that you copied all of it, or ask your administrator for a new one.",
        )
      : messagePage(
          410,
          kind === "used" ? "Invitation already used" : "Invitation expired",
          kind === "used"
            ? "This invitation link has already been used. Sign in with the password you chose, or ask your administrator for a new link."
            : "This invitation link has expired (links are valid for 7 days). Ask your administrator for a new one.",
        );

  return new Elysia({ name: "settings-sign-in", detail: { hide: true } })
    .get("/login", ({ request, query }) =>
      failSafe(request, async () => {
        if (await signedIn(services, request)) return seeOther(HOME);
        const csrf = preSessionCsrf(request);
        const notice =
          query.signed_out !== undefined
            ? "You are signed out."
            : query.expired !== undefined
              ? "Your session has ended. Sign in again."
              : query.passkey_added !== undefined
                ? "Passkey added. Sign in with it now."
                : undefined;
        const response = loginPage(200, { csrf: csrf.token, notice });
        if (csrf.setCookie) response.headers.append("set-cookie", csrf.setCookie);
        return response;
      }),
    )
    .post("/login", ({ request, body }) =>
      failSafe(request, async () => {
        if (
          !originAllowed(request, config.publicBaseUrl) ||
          !preSessionCsrfValid(request, field(body, "_csrf"))
        )
          return forbiddenPage();
        const email = field(body, "email");
        const csrf = field(body, "_csrf");
        const result = await accounts.signIn(
          email,
          field(body, "password"),
          clientNetworkOf(request),
          clientIpOf(request),
        );
        if (result.kind === "throttled")
          return throttledLoginPage({ csrf, email }, result.retryAfterS);
        if (result.kind === "busy") {
          const response = loginPage(503, {
            csrf,
            email,
            error: "Too many sign-ins at once. Wait a second, then try again.",
          });
          response.headers.set("retry-after", "1");
          return response;
        }
        if (result.kind === "invalid") {
          return loginPage(401, { csrf, email, error: "Invalid email or password" });
        }
        if (result.kind === "passkey-required") {
          return loginPage(403, { csrf, email, error: PASSKEY_REQUIRED });
        }
        // a fresh id at every sign-in; the browser's previous session, if any, ends
        await sessions.end(readCookie(request, SESSION_COOKIE));
        const to = result.enrollOnly ? SECURITY : HOME;
        return seeOther(to, [sessionCookie(request, result.token)]);
      }),
    )
    .post("/logout", ({ request, body }) =>
      failSafe(request, async () => {
        const session = await signedIn(services, request, { enrollOnly: "allowed" });
        if (!session) return seeOther("/login");
        if (
          !originAllowed(request, config.publicBaseUrl) ||
          !sessionCsrfValid(session, field(body, "_csrf"))
        )
          return forbiddenPage();
        await sessions.end(session.token);
        return seeOther("/login?signed_out", [clearCookie(request, SESSION_COOKIE)]);
      }),
    )
    .get("/invite/:token", ({ request, params }) =>
      failSafe(request, async () => {
        const state = INVITE_TOKEN.test(params.token)
          ? await accounts.invitation(params.token)
          : ({ kind: "unknown" } as const);
        if (state.kind !== "valid") return invitationGone(state.kind);
        const csrf = preSessionCsrf(request);
        const response = pageResponse(
          inviteView({
            csrf: csrf.token,
            token: params.token,
            email: state.email,
            firstName: state.firstName,
          }),
        );
        if (csrf.setCookie) response.headers.append("set-cookie", csrf.setCookie);
        return response;
      }),
    )
    .post("/invite/:token", ({ request, params, body }) =>
      failSafe(request, async () => {
        if (
          !originAllowed(request, config.publicBaseUrl) ||
          !preSessionCsrfValid(request, field(body, "_csrf"))
        )
          return forbiddenPage();
        const state = INVITE_TOKEN.test(params.token)
          ? await accounts.invitation(params.token)
          : ({ kind: "unknown" } as const);
        if (state.kind !== "valid") return invitationGone(state.kind);
        const password = field(body, "password");
        const again = (error: string) =>
          pageResponse(
            inviteView({
              csrf: field(body, "_csrf"),
              token: params.token,
              email: state.email,
              firstName: state.firstName,
              error,
            }),
            { status: 400 },
          );
        if (
          body &&
          "passwordConfirm" in (body as object) &&
          field(body, "passwordConfirm") !== password
        )
          return again("The two passwords are not the same.");
        try {
          const result = await accounts.acceptInvitation(params.token, password);
          if (result.kind !== "ok") return invitationGone(result.kind);
          return seeOther(HOME, [sessionCookie(request, result.token)]);
        } catch (error) {
          if (error instanceof ApiError && error.details?.[0])
            return again(`Password: ${error.details[0].message}.`);
          throw error;
        }
      }),
    );
};
