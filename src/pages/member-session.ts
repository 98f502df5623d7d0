import { Elysia, status } from "elysia";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import type { PageDeps } from "./deps.ts";
import { seeOther } from "./html.ts";
import { pageFailure } from "./layout.ts";
import { clearCookie, readCookie, signedIn } from "./request.ts";

/** Without a (live) session: to sign-in, saying why when a cookie was there. */
const toLogin = (request: Request) =>
  readCookie(request, SESSION_COOKIE)
    ? seeOther("/login?expired", [clearCookie(request, SESSION_COOKIE)])
    : seeOther("/login");

/**
 * The settings screen's signed-in check, once: a route with `{ signedIn: true }` gets
 * `session` (the member, the cookie value and its CSRF token); without a live session the
 * answer is the redirect to sign-in, and a failure to read the session is the HTML 500 page.
 */
export const memberSession = (services: PageDeps["services"]) => {
  const failure = pageFailure(services.logger);
  return new Elysia().macro({
    signedIn: {
      async resolve({ request }) {
        try {
          const session = await signedIn(services, request);
          if (!session) return status(303, toLogin(request));
          return { session };
        } catch (error) {
          return status(500, failure(request, error));
        }
      },
    },
  });
};
