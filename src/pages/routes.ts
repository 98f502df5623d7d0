import { Elysia } from "elysia";
import { apiKeyPages } from "./api-keys.ts";
import { assetRoutes } from "./assets.ts";
import type { PageDeps } from "./deps.ts";
import { homePages } from "./home.ts";
import { keySecurityPages } from "./key-security.ts";
import { keyUsagePages } from "./key-usage.ts";
import { passkeyAssetRoutes } from "./passkey-assets.ts";
import { passkeySignInPages } from "./passkey-sign-in.ts";
import { securityPages } from "./security.ts";
import { signInPages } from "./sign-in.ts";

/** The settings screen (docs/decisions.md §10; docs/settings.md): sign-in, keys, assets. */
export const settingsPages = (deps: PageDeps) =>
  new Elysia({ name: "settings-pages" })
    .use(assetRoutes())
    .use(homePages({ graphiql: !deps.services.config.production }))
    .use(passkeyAssetRoutes())
    .use(signInPages(deps))
    .use(passkeySignInPages(deps))
    .use(securityPages(deps))
    .use(apiKeyPages(deps))
    .use(keyUsagePages(deps))
    .use(keySecurityPages(deps));
