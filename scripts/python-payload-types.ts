/**
 * The Python client's webhook payload types (clients/python/orgit/models.py), written from the
 * payload schemas the features declare, as `npm run events:generate` writes the event-type list.
 * Covers what those schemas use: objects (a `title` names the class and lets events share it),
 * records, arrays, constants, unions with null, scalars, and `$ref`s to a REST record, which
 * name the client's TypedDict of the same name (TicketRecord, AlertRecord, …).
 */
import type { WebhookEventDeclaration } from "../src/outbox/events.ts";

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema walked by hand
type Schema = Record<string, any>;

const pascal = (text: string) =>
  text
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");

const PYTHON_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

export const BEGIN =
  "# --- webhook deliveries' payload: written by `npm run events:generate` from the payload\n" +
  "# schemas the features declare (scripts/python-payload-types.ts); do not edit by hand ---";
export const END = "# --- end of the generated webhook payload types ---";

export function pythonPayloadTypes(events: readonly WebhookEventDeclaration[]): string {
  const classes: string[] = [];
  const names = new Map<Schema, string>();
  const taken = new Map<string, string>();

  function typeOf(schema: Schema, name: string): string {
    if (typeof schema.$ref === "string") return schema.$ref.split("/").pop() as string;
    if ("const" in schema) return `Literal[${JSON.stringify(schema.const)}]`;
    const options: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
    if (options) {
      const present = options.filter((option) => option.type !== "null");
      const inner = present.every((option) => "const" in option)
        ? `Literal[${present.map((option) => JSON.stringify(option.const)).join(", ")}]`
        : present.length === 1
          ? typeOf(present[0] as Schema, name)
          : `Union[${present.map((option) => typeOf(option, name)).join(", ")}]`;
      return present.length < options.length ? `Optional[${inner}]` : inner;
    }
    switch (schema.type) {
      case "string":
        return "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "array":
        return `List[${typeOf(schema.items, `${name}Item`)}]`;
      case "object":
        if (schema.properties) return classOf(schema, name);
        if (schema.patternProperties) {
          const [value] = Object.values(schema.patternProperties) as Schema[];
          return `Dict[str, ${typeOf(value as Schema, `${name}Value`)}]`;
        }
        return "Dict[str, Any]";
      default:
        return "Any";
    }
  }

  /** The TypedDict of an object schema, written once (before its first use) and named. */
  function classOf(schema: Schema, fallback: string): string {
    const known = names.get(schema);
    if (known) return known;
    const name: string = schema.title ?? fallback;
    const text = JSON.stringify(schema);
    if (taken.has(name)) {
      // two features may spell one shape alike (FieldChange): one class, if the same
      if (taken.get(name) === text) return name;
      throw new Error(`two different payload schemas are both named ${name}`);
    }
    taken.set(name, text);
    names.set(schema, name);
    const required = new Set<string>(schema.required ?? []);
    const fields = Object.entries(schema.properties as Record<string, Schema>).map(
      ([key, property]) => ({
        key,
        type: typeOf(property, `${name}${pascal(key)}`),
        required: required.has(key),
      }),
    );
    const line = (f: { key: string; type: string }) => `    ${f.key}: ${f.type}`;
    const must = fields.filter((f) => f.required);
    const may = fields.filter((f) => !f.required);
    if (fields.some((f) => PYTHON_KEYWORDS.has(f.key))) {
      // a key such as `from` cannot be a class attribute: the functional form
      const entries = fields.map((f) => `"${f.key}": ${f.type}`).join(", ");
      const total = may.length === 0 ? "" : ", total=False";
      if (must.length && may.length) throw new Error(`${name}: keywords and optional keys`);
      classes.push(`${name} = TypedDict("${name}", {${entries}}${total})`);
    } else if (may.length === 0)
      classes.push(`class ${name}(TypedDict):\n${must.map(line).join("\n")}`);
    else {
      const base = must.length ? `_${name}Base` : "TypedDict";
      if (must.length) classes.push(`class ${base}(TypedDict):\n${must.map(line).join("\n")}`);
      classes.push(`class ${name}(${base}, total=False):\n${may.map(line).join("\n")}`);
    }
    return name;
  }

  const dataKeys = new Map<string, Set<string>>();
  for (const event of events) {
    const name = `${pascal(event.type)}Event`;
    const data = classOf(event.payload as Schema, `${name}Data`);
    classes.push(
      `class ${name}(TypedDict):\n    type: Literal["${event.type}"]\n    timestamp: str\n    data: ${data}`,
    );
    for (const [key, property] of Object.entries((event.payload as Schema).properties ?? {})) {
      const types = dataKeys.get(key) ?? new Set<string>();
      types.add(typeOf(property as Schema, `${data}${pascal(key)}`));
      dataKeys.set(key, types);
    }
  }
  const merged = [...dataKeys].map(([key, types]) => {
    const list = [...types];
    return `    ${key}: ${list.length === 1 ? list[0] : `Union[${list.join(", ")}]`}`;
  });
  classes.push(
    `class WebhookEventData(TypedDict, total=False):\n    """Every key a delivery's \`data\` may hold; each event's own class above says which."""\n\n${merged.join("\n")}`,
    `class WebhookEvent(TypedDict):\n    """The body of a webhook delivery, as verify_webhook returns it."""\n\n    type: WebhookEventType\n    timestamp: str\n    data: WebhookEventData`,
  );
  return `${BEGIN}\n\n\n${classes.join("\n\n\n")}\n\n\n${END}`;
}
