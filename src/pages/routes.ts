import { Elysia } from "elysia";
import type { RestDeps } from "../http/auth.ts";
import { requestMeta } from "../http/request-context.ts";
import { errorFields } from "../logger.ts";
import { apiKeyPages } from "./api-keys.ts";
import { assetRoutes } from "./assets.ts";
import { messagePage } from "./layout.ts";
import { signInPages } from "./sign-in.ts";

const PAGE_PATHS = /^\/(login|logout|invite\/|settings(\/|$))/;

/**
 * The settings screen (CONTRACT section 10). Its failures answer an HTML page with the
 * screen's headers rather than the API's JSON: registered before the global JSON error
 * handler would run, this local one turns anything unexpected into a logged 500 page.
 */
export const settingsPages = (deps: RestDeps) =>
  new Elysia({ name: "settings-pages" })
    .onError({ as: "scoped" }, ({ error, request, code }) => {
      if (!PAGE_PATHS.test(new URL(request.url).pathname) || code === "NOT_FOUND") return;
      deps.services.logger.error("settings page failed", {
        requestId: requestMeta(request)?.id,
        ...errorFields(error),
      });
      return messagePage(
        500,
        "Something went wrong",
        "The page could not be shown. Try again in a moment.",
        {
          href: "/settings/api-keys",
          label: "Back to the settings",
        },
      );
    })
    .use(assetRoutes())
    .use(signInPages(deps))
    .use(apiKeyPages(deps));
