import { requestMeta } from "../http/request-context.ts";
import { errorFields, type Logger } from "../logger.ts";
import { type Html, html, pageResponse } from "./html.ts";

export interface LayoutMember {
  firstName: string;
  lastName: string;
  email: string;
}

/** The frame of every page: one stylesheet and one script, both served by the service. */
export function layout(options: {
  title: string;
  main: Html;
  member?: LayoutMember;
  /** the signed-in member's CSRF token, for the sign-out form */
  csrf?: string;
  /** more scripts of the service's own, after the common one (the passkey pages') */
  scripts?: readonly string[];
}): Html {
  const { title, main, member, csrf, scripts = [] } = options;
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · orgit</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/settings.css">
<script src="/assets/settings.js" defer></script>
${scripts.map((src) => html`<script src="${src}" defer></script>\n`)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/settings/api-keys">orgit</a>
  ${
    member && csrf
      ? html`<nav aria-label="Account">
    <a href="/settings/api-keys">API keys</a>
    <a href="/settings/security" data-testid="nav-security">Security</a>
    <span class="who">${member.firstName} ${member.lastName}</span>
    <form method="post" action="/logout" class="inline">
      <input type="hidden" name="_csrf" value="${csrf}">
      <button type="submit" class="link" data-testid="logout">Sign out</button>
    </form>
  </nav>`
      : ""
  }
</header>
<main id="main">
${main}
</main>
</body>
</html>`;
}

/** A page with a heading, a sentence and a way on: errors, expired links, refusals. */
export function messagePage(
  status: number,
  title: string,
  text: string,
  link: { href: string; label: string } = { href: "/login", label: "Go to sign-in" },
): Response {
  const main = html`<section class="card narrow">
  <h1>${title}</h1>
  <p role="alert">${text}</p>
  <p><a href="${link.href}">${link.label}</a></p>
</section>`;
  return pageResponse(layout({ title, main }), { status });
}

/** The HTML 500 page for an unexpected failure, logged with the request id. */
export function pageFailure(logger: Logger) {
  return (request: Request, error: unknown): Response => {
    logger.error("settings page failed", {
      requestId: requestMeta(request)?.id,
      ...errorFields(error),
    });
    return messagePage(
      500,
      "Something went wrong",
      "The page could not be shown. Try again in a moment.",
      { href: "/settings/api-keys", label: "Back to the settings" },
    );
  };
}

/**
 * Runs a page handler so that an unexpected failure answers an HTML 500 page with the screen's
 * headers (and is logged), instead of reaching the API's global JSON error handler, which
 * Elysia runs before any hook of a plugin.
 */
export function pageFailSafe(logger: Logger) {
  const failure = pageFailure(logger);
  return async (request: Request, handler: () => Promise<Response>): Promise<Response> => {
    try {
      return await handler();
    } catch (error) {
      return failure(request, error);
    }
  };
}

/** Where a signed-in member lands: their API keys. */
export const HOME = "/settings/api-keys";

/** A form whose origin or CSRF token did not check out: nothing was changed. */
export const forbiddenPage = () =>
  messagePage(
    403,
    "Form refused",
    "This form has expired or was not sent from this site, so nothing was changed. Reload the page and try again.",
    { href: HOME, label: "Back to the settings" },
  );
