/**
 * JSON Schema clean-up for the OpenAPI document: what typebox and Elysia put into a schema for
 * their own use becomes plain JSON Schema 2020-12 (the dialect of OpenAPI 3.1).
 */

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema fragments walked generically
type Json = Record<string, any>;

/** Keywords whose value is data, not a schema: never rewritten. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example", "required"]);

/**
 * - drops `error` (our validation message for a field), `noValidate` (Elysia's: an answer not
 *   checked per request) and `nullable` (OpenAPI 3.0's; the 3.1 form, `type: [..., "null"]`, is
 *   already there);
 * - a union of string literals becomes one `enum`, which generators turn into a union type;
 * - Elysia's query coercion (`anyOf: [{ type: string, format: integer }, { type: integer }]`)
 *   becomes the integer schema a client should send.
 */
export function cleanSchema(schema: unknown): Json {
  if (Array.isArray(schema)) return schema.map(cleanSchema) as unknown as Json;
  if (!schema || typeof schema !== "object") return schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === "error" || key === "nullable" || key === "noValidate") continue;
    if (DATA_KEYWORDS.has(key)) out[key] = value;
    else if (key === "properties" || key === "patternProperties" || key === "$defs")
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([name, sub]) => [name, cleanSchema(sub)]),
      );
    else if (value && typeof value === "object") out[key] = cleanSchema(value);
    else out[key] = value;
  }
  return simplifyUnion(out);
}

function simplifyUnion(schema: Json): Json {
  const branches = schema.anyOf as Json[] | undefined;
  if (!Array.isArray(branches) || branches.length === 0) return schema;
  const { anyOf: _, ...rest } = schema;
  if (branches.every((b) => typeof b.const === "string" && Object.keys(b).length <= 2))
    return { ...rest, type: "string", enum: branches.map((b) => b.const) };
  const coerced = branches.find(
    (b) => b.type === "string" && (b.format === "integer" || b.format === "numeric"),
  );
  const numeric = branches.find((b) => b.type === "integer" || b.type === "number");
  if (branches.length === 2 && coerced && numeric) {
    return { ...numeric, ...rest };
  }
  return schema;
}

const isNamedSchema = (node: Json) =>
  typeof node.title === "string" &&
  (node.type !== undefined || node.properties !== undefined || node.anyOf !== undefined);

/** JSON of a schema for comparison, without descriptions (they vary with the context). */
const shape = (schema: Json) =>
  JSON.stringify(schema, (key, value) => (key === "description" ? undefined : value));

/**
 * Moves every schema with a `title` into `components.schemas` under that name and points to
 * it with `$ref`, so generated clients get named models (Ticket, Equipment, Webhook…). Nested
 * named schemas are moved first. Two different schemas with one title get a numbered name.
 */
export function hoistNamedSchemas(paths: Json, schemas: Json): void {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== "object") return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node as Json))
      out[key] = DATA_KEYWORDS.has(key) ? value : visit(value);
    if (!isNamedSchema(out)) return out;
    const { description, ...schema } = out;
    let name = out.title as string;
    for (let n = 2; schemas[name] && shape(schemas[name]) !== shape(schema); n++)
      name = `${out.title}${n}`;
    schemas[name] ??= schema;
    const reference: Json = { $ref: `#/components/schemas/${name}` };
    // a $ref may carry a description beside it in OpenAPI 3.1
    if (description) reference.description = description;
    return reference;
  };
  for (const [path, methods] of Object.entries(paths)) paths[path] = visit(methods);
}
