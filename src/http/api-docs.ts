import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { toOpenAPISchema } from "@elysiajs/openapi/openapi";
import { type AnyElysia, Elysia } from "elysia";
import type { Config } from "../config.ts";
import { finishDocument, type OpenApiDocument, type RouteInfo } from "../openapi/document.ts";
import type { OpenApiNames } from "../openapi/names.ts";

/**
 * The API reference: Swagger UI at /swagger (and /swagger/), the OpenAPI 3.1 document at
 * /swagger/json. Swagger UI's script and stylesheet come from the pinned `swagger-ui-dist`
 * package in node_modules, served by this route, so the page renders on a machine with no
 * internet (a CDN would be unreachable there, and unpinned).
 */
const ASSETS = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
} as const;
type AssetName = keyof typeof ASSETS;

const assetDir = (() => {
  const packageJson = createRequire(import.meta.url).resolve("swagger-ui-dist/package.json");
  return packageJson.slice(0, -"package.json".length);
})();
const assetCache = new Map<AssetName, Uint8Array<ArrayBuffer>>();

async function asset(name: AssetName): Promise<Uint8Array<ArrayBuffer>> {
  let bytes = assetCache.get(name);
  if (!bytes) {
    bytes = new Uint8Array(await readFile(assetDir + name));
    assetCache.set(name, bytes);
  }
  return bytes;
}

// validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>orgit API reference</title>
  <link rel="icon" type="image/png" href="/swagger/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/swagger/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger/assets/swagger-ui-bundle.js"></script>
  <script src="/swagger/assets/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: "/swagger/json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
  displayOperationId: true,
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false
});
`;

const html = () =>
  new Response(PAGE, {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" },
  });

/**
 * Routes of the reference, with the names the features declare (src/features.ts). The document describes every route of the app this plugin is used
 * in (Elysia hands a plugin its parent's route list); it is built on first request, when all
 * routes are registered, and kept.
 */
export const apiDocs = (config: Config, names: OpenApiNames) => {
  let document: OpenApiDocument | undefined;
  const plugin: AnyElysia = new Elysia({ name: "api-docs" })
    .get("/swagger", html, { detail: { hide: true } })
    .get("/swagger/", html, { detail: { hide: true } })
    .get(
      "/swagger/assets/init.js",
      () => new Response(INIT, { headers: { "content-type": ASSETS["swagger-ui-bundle.js"] } }),
      { detail: { hide: true } },
    )
    .get(
      "/swagger/assets/:name",
      async ({ params, set }) => {
        if (!(params.name in ASSETS)) {
          set.status = 404;
          return { error: "Not found" };
        }
        const name = params.name as AssetName;
        return new Response(await asset(name), {
          headers: {
            "content-type": ASSETS[name],
            // the file changes only with the package version, which is pinned
            "cache-control": "public, max-age=86400",
          },
        });
      },
      { detail: { hide: true } },
    )
    .get(
      "/swagger/json",
      () => {
        document ??= finishDocument(
          toOpenAPISchema(plugin, undefined, undefined, undefined, "3.1.2") as never,
          config,
          (plugin as unknown as { getGlobalRoutes(): RouteInfo[] }).getGlobalRoutes(),
          names,
        );
        return document;
      },
      { detail: { hide: true } },
    );
  return plugin;
};
