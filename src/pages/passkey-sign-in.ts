import { Elysia } from "elysia";
import { randomBase62 } from "../auth/keys.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import type { PageDeps } from "./deps.ts";
import { pageResponse, seeOther } from "./html.ts";
import { forbiddenPage, HOME, pageFailSafe } from "./layout.ts";
import { perIpRefusal } from "./page-limits.ts";
import {
  clearCookie,
  clientIpOf,
  clientNetworkOf,
  cookie,
  field,
  originAllowed,
  preSessionCsrfValid,
  readCookie,
} from "./request.ts";
import { throttledLoginPage } from "./sign-in.ts";
import { loginView } from "./sign-in-views.ts";

/**
 * The sign-in attempt a passkey ceremony is bound to: a random id in an HttpOnly cookie, only
 * its hash on the server (src/modules/passkeys/service.ts). Another browser, or this one after
 * 5 minutes, cannot answer the challenge.
 */
const ATTEMPT_COOKIE = "orgit_passkey_attempt";
const ATTEMPT_PATH = "/login";
const ATTEMPT = /^[0-9A-Za-z]{43}$/;

type PasskeySignIn = Awaited<ReturnType<PageDeps["services"]["passkeys"]["signIn"]>>;
const REFUSALS: Record<Exclude<PasskeySignIn["kind"], "ok" | "throttled">, string> = {
  expired: "The passkey sign-in took too long or was already used. Try again.",
  unknown:
    "This passkey is not registered with orgit (it may have been removed). Use another passkey or your password.",
  invalid: "The passkey could not be verified. Try again.",
  replayed:
    "This passkey was refused: its use counter went backwards, as happens when a passkey has been copied. Use another passkey or your password, and tell your administrator.",
};

export const NEEDS_SCRIPT =
  "Passkeys need JavaScript and a browser that supports them. Turn JavaScript on, or use your password.";

/** JSON for the page's script: the ceremony's options, or why not. */
export const json = (status: number, body: unknown, cookies: string[] = []) => {
  const headers = new Headers({
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  for (const c of cookies) headers.append("set-cookie", c);
  return new Response(JSON.stringify(body), { status, headers });
};

export const FORM_REFUSED = {
  error: "This form has expired or was not sent from this site. Reload the page and try again.",
};

/** POST /login/passkey/options and POST /login/passkey: password-less sign-in. */
export const passkeySignInPages = ({ services }: Pick<PageDeps, "services">) => {
  const { passkeys, sessions, config, limits } = services;
  const failSafe = pageFailSafe(services.logger);
  const formAllowed = (request: Request, body: unknown) =>
    originAllowed(request, config.publicBaseUrl) &&
    preSessionCsrfValid(request, field(body, "_csrf"));

  return new Elysia({ name: "settings-passkey-sign-in", detail: { hide: true } })
    .post("/login/passkey/options", ({ request, body }) =>
      failSafe(request, async () => {
        // each answer stores a challenge: the per-IP bucket bounds how many one client makes
        const refused = await perIpRefusal(limits, request);
        if (refused) return refused;
        if (!formAllowed(request, body)) return json(403, FORM_REFUSED);
        // a new attempt each time: an older challenge of this browser is simply never used
        const attempt = randomBase62(43);
        const options = await passkeys.signInOptions(attempt);
        const attemptCookie = cookie(request, ATTEMPT_COOKIE, attempt, {
          path: ATTEMPT_PATH,
          maxAge: passkeys.limits.challengeTtlMs / 1000,
        });
        return json(200, options, [attemptCookie]);
      }),
    )
    .post("/login/passkey", ({ request, body }) =>
      failSafe(request, async () => {
        const csrf = field(body, "_csrf");
        if (!formAllowed(request, body)) return forbiddenPage();
        const attempt = readCookie(request, ATTEMPT_COOKIE);
        const done = clearCookie(request, ATTEMPT_COOKIE, ATTEMPT_PATH);
        if (field(body, "response") === "") {
          // the form was sent without the page's script: nothing to check
          return pageResponse(loginView({ csrf, error: NEEDS_SCRIPT }), { status: 400 });
        }
        const result: PasskeySignIn =
          attempt && ATTEMPT.test(attempt)
            ? await passkeys.signIn(
                attempt,
                field(body, "response"),
                clientNetworkOf(request),
                clientIpOf(request),
              )
            : { kind: "expired" };
        if (result.kind === "throttled") {
          const response = throttledLoginPage({ csrf }, result.retryAfterS);
          response.headers.append("set-cookie", done);
          return response;
        }
        if (result.kind !== "ok") {
          const status = result.kind === "expired" ? 400 : 401;
          return pageResponse(loginView({ csrf, error: REFUSALS[result.kind] }), {
            status,
            cookies: [done],
          });
        }
        // a fresh id at every sign-in; the browser's previous session, if any, ends
        await sessions.end(readCookie(request, SESSION_COOKIE));
        return seeOther(HOME, [cookie(request, SESSION_COOKIE, result.token), done]);
      }),
    );
};
