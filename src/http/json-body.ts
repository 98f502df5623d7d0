import { Elysia } from "elysia";
import { ApiError, validationFailed } from "../errors.ts";
import { jsonNestingExceeds, MAX_JSON_DEPTH } from "../input-safety.ts";
import { MAX_BODY_BYTES } from "./request-context.ts";

/** Reads a body stream, refusing it as soon as it passes the limit (chunked uploads included). */
export async function readBodyLimited(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  // a body of a declared length within the limit is read whole by the runtime: the request
  // carries no more than its Content-Length, and a JavaScript stream per request cost a /graphql
  // POST a few percent of its CPU (docs/performance.md, "/graphql")
  const declared = request.headers.get("content-length");
  if (declared && /^\d+$/.test(declared) && Number(declared) <= limit) return request.text();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new ApiError("PAYLOAD_TOO_LARGE", "Request body too large (limit 1 MiB)");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * JSON bodies: size-limited, and a clear 400 instead of the framework's parse error. The REST
 * API takes JSON only: a body of another type (a form, plain text — what `curl -d` sends
 * without a Content-Type) is a 415 naming the fix, not a misleading validation error. Nesting
 * deeper than MAX_JSON_DEPTH is a 400 `Validation failed`.
 */
export const jsonBody = () =>
  new Elysia({ name: "json-body" }).onParse({ as: "global" }, async ({ request, contentType }) => {
    if (!contentType.includes("json")) {
      if (request.body && new URL(request.url).pathname.startsWith("/api/")) {
        throw new ApiError(
          "UNSUPPORTED_MEDIA_TYPE",
          "Send the body as JSON with Content-Type: application/json",
        );
      }
      if (!request.body) return;
      // the pages' forms: read under the same 1 MiB cap, chunked bodies included
      const text = await readBodyLimited(request);
      return contentType.includes("application/x-www-form-urlencoded") ? formFields(text) : text;
    }
    const text = await readBodyLimited(request);
    if (text.trim() === "") return undefined;
    // checked on the text, before any recursive parser or validator can overflow its stack
    if (jsonNestingExceeds(text)) {
      throw validationFailed([
        { path: ["body"], message: `Must not be nested more than ${MAX_JSON_DEPTH} levels` },
      ]);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError("BAD_REQUEST", "Malformed JSON body");
    }
  });

/** A urlencoded form as an object; a repeated field becomes a list (checkboxes). */
function formFields(text: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = fields[name];
    fields[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return fields;
}
