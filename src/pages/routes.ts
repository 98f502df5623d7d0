import { Elysia } from "elysia";
import type { RestDeps } from "../http/auth.ts";
import { apiKeyPages } from "./api-keys.ts";
import { assetRoutes } from "./assets.ts";
import { signInPages } from "./sign-in.ts";

/** The settings screen (docs/decisions.md §10; docs/settings.md): sign-in, keys, assets. */
export const settingsPages = (deps: RestDeps) =>
  new Elysia({ name: "settings-pages" })
    .use(assetRoutes())
    .use(signInPages(deps))
    .use(apiKeyPages(deps));
