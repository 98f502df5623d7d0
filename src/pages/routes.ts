import { Elysia } from "elysia";
import type { OperationBridge } from "../graphql/bridge.ts";
import type { Services } from "../services.ts";
import { apiKeyPages } from "./api-keys.ts";
import { assetRoutes } from "./assets.ts";
import { signInPages } from "./sign-in.ts";

/** What the pages take: a few services, and the bridge that runs operations as the member. */
export interface PageDeps {
  services: Pick<Services, "config" | "logger" | "sessions" | "accounts">;
  operations: OperationBridge;
}

/** The settings screen (docs/decisions.md §10; docs/settings.md): sign-in, keys, assets. */
export const settingsPages = (deps: PageDeps) =>
  new Elysia({ name: "settings-pages" })
    .use(assetRoutes())
    .use(signInPages(deps))
    .use(apiKeyPages(deps));
