/**
 * Generates `src/generated/openapi.ts` from the service's OpenAPI document and the webhook
 * events the features declare (their payload schemas).
 *
 *   npx bun run clients/typescript/scripts/generate-types.ts
 *
 * The app is built in-process (in-memory PGlite, no port), its `/swagger/json` is read, every
 * body and response is cut down to its `application/json` content (the document also lists
 * multipart/form-data and text/plain, which the API does not accept), and openapi-typescript
 * turns the result into types, formatted by Biome like the rest of the repository. The drift test (`test/generated.test.ts`) compares the committed
 * file with `generateTypes()`.
 */
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { webhookEventSchemas } from "../../../scripts/webhook-event-types.ts";
import { buildTestApp, freshDatabase, send } from "../../../tests/helpers/harness.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
const BIOME = `${ROOT}node_modules/.bin/biome`;
export const GENERATED_PATH = new URL("../src/generated/openapi.ts", import.meta.url).pathname;
export const REGENERATE_COMMAND = "npx bun run clients/typescript/scripts/generate-types.ts";

const HEADER = `// generated — do not edit, run \`${REGENERATE_COMMAND}\`
// Source: the service's OpenAPI document (GET /swagger/json), application/json content only,
// and the webhook events' bodies (components WebhookEvent and *Event, from src/features.ts).

`;

/** The service's OpenAPI document, from an app built in-process. */
export async function fetchOpenApiDocument(): Promise<OpenAPI3> {
  const db = await freshDatabase("pglite");
  try {
    const app = await buildTestApp(db.database);
    try {
      const response = await send(app, "/swagger/json");
      if (response.status !== 200) throw new Error(`/swagger/json answered ${response.status}`);
      return (await response.json()) as OpenAPI3;
    } finally {
      await app.stop();
    }
  } finally {
    await db.drop();
  }
}

type Content = Record<string, unknown>;

function jsonOnly(holder: { content?: Content } | undefined): void {
  if (!holder?.content) return;
  const json = holder.content["application/json"];
  holder.content = json === undefined ? {} : { "application/json": json };
}

/** Keeps only the application/json content of every request body and response (in place). */
export function keepJsonContent(document: OpenAPI3): OpenAPI3 {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (typeof operation !== "object" || operation === null) continue;
      const op = operation as {
        requestBody?: { content?: Content };
        responses?: Record<string, { content?: Content }>;
      };
      jsonOnly(op.requestBody);
      for (const response of Object.values(op.responses ?? {})) jsonOnly(response);
    }
  }
  return document;
}

/**
 * Adds the webhook deliveries' bodies (sent, not served, so not in the service's document) as
 * component schemas, from the payload schemas the features declare (src/features.ts).
 */
export function withWebhookEvents(document: OpenAPI3): OpenAPI3 {
  const components = document.components ?? {};
  components.schemas = {
    ...components.schemas,
    ...webhookEventSchemas(),
  } as typeof components.schemas;
  document.components = components;
  return document;
}

/** Formats TypeScript source with the repository's Biome settings, as `biome check --write` would. */
async function biomeFormat(source: string): Promise<string> {
  const child = Bun.spawn([BIOME, "format", `--stdin-file-path=${GENERATED_PATH}`], {
    cwd: ROOT,
    stdin: new Blob([source]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [text, errors, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`biome format failed (${code}): ${errors}`);
  return text;
}

/** The text `src/generated/openapi.ts` should hold for the service as it is now. */
export async function generateTypes(): Promise<string> {
  const document = withWebhookEvents(keepJsonContent(await fetchOpenApiDocument()));
  const ast = await openapiTS(document, { silent: true });
  return biomeFormat(HEADER + astToString(ast));
}

if (import.meta.main) {
  const text = await generateTypes();
  await Bun.write(GENERATED_PATH, text);
  console.log(`wrote ${GENERATED_PATH} (${text.length} characters)`);
}
