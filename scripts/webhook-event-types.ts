/**
 * `npm run events:generate`: writes the webhook event types the features declare
 * (src/features.ts, WEBHOOK_EVENT_TYPES) into the copies outside TypeScript's reach: the SDL's
 * descriptions (schema/webhooks.graphql) and the Python client's `WebhookEventType` and
 * payload types; the TypeScript client's are generated with its other types (clients:generate).
 * tests/unit/webhook-event-copies.test.ts fails while a copy is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from "../src/features.ts";
import type { WebhookEventDeclaration } from "../src/outbox/events.ts";
import { BEGIN, END, pythonPayloadTypes } from "./python-payload-types.ts";

const ROOT = join(import.meta.dir, "..");

interface Copy {
  file: string;
  /** the text the list is written into; the whole match is replaced */
  pattern: RegExp;
  write(types: readonly string[], events: readonly WebhookEventDeclaration[]): string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const quoted = (types: readonly string[]) => types.map((type) => `"${type}"`);

/** A Python `Literal[…]`, wrapped at 100 columns as the file's other long literals are. */
function pythonLiteral(types: readonly string[]): string {
  const line = `WebhookEventType = Literal[${quoted(types).join(", ")}]`;
  if (line.length <= 100) return line;
  const lines: string[] = [];
  let current = "   ";
  for (const item of quoted(types)) {
    const next = `${current} ${item},`;
    if (next.length > 100) {
      lines.push(current);
      current = `    ${item},`;
    } else current = next;
  }
  lines.push(current);
  return `WebhookEventType = Literal[\n${lines.join("\n")}\n]`;
}

/** `ticket.created` → `TicketCreatedEvent`, `api_key.rotated` → `ApiKeyRotatedEvent`. */
export const eventSchemaName = (type: string) =>
  `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}Event`;

/**
 * The delivered body of every declared event as a JSON Schema (OpenAPI 3.1 component), named by
 * `eventSchemaName`, and `WebhookEvent`, one of them: `{ type, timestamp, data }`, `data` being
 * the payload schema the feature declares. A record in a payload refers to the component its
 * REST GET answers with (`#/components/schemas/TicketRecord`). The clients' payload types are
 * generated from these (clients/typescript/scripts/generate-types.ts, and the Python copy below).
 */
export function webhookEventSchemas(events = WEBHOOK_EVENTS): Record<string, object> {
  const schemas: Record<string, object> = {};
  for (const event of events) {
    schemas[eventSchemaName(event.type)] = {
      type: "object",
      required: ["type", "timestamp", "data"],
      properties: {
        type: { const: event.type, type: "string" },
        timestamp: {
          type: "string",
          format: "date-time",
          description: "when the change happened",
        },
        // JSON text drops typebox's symbol keys
        data: JSON.parse(JSON.stringify(event.payload)),
      },
    };
  }
  schemas.WebhookEvent = {
    description: "The body of a webhook delivery: narrow on `type`.",
    oneOf: events.map((event) => ({ $ref: `#/components/schemas/${eventSchemaName(event.type)}` })),
  };
  return schemas;
}

export const COPIES: Copy[] = [
  {
    file: "schema/webhooks.graphql",
    pattern: /"Event types sent to it: [^"]*\."/,
    write: (types) => `"Event types sent to it: ${types.join(", ")}."`,
  },
  {
    file: "schema/webhooks.graphql",
    pattern: /"One or more of [^"]*\."/,
    write: (types) => `"One or more of ${types.join(", ")}."`,
  },
  {
    file: "clients/python/orgit/models.py",
    pattern: /WebhookEventType = Literal\[[^\]]*\]/,
    write: pythonLiteral,
  },
  {
    file: "clients/python/orgit/models.py",
    pattern: new RegExp(`${escapeRegExp(BEGIN)}[\\s\\S]*?${escapeRegExp(END)}`),
    write: (_, events) => pythonPayloadTypes(events),
  },
];

/** Each file with its copies written from `types`: `{ file, before, after }`. */
export function renderCopies(
  types: readonly string[] = WEBHOOK_EVENT_TYPES,
  events: readonly WebhookEventDeclaration[] = WEBHOOK_EVENTS,
) {
  const files = [...new Set(COPIES.map((copy) => copy.file))];
  return files.map((file) => {
    const before = readFileSync(join(ROOT, file), "utf8");
    let after = before;
    for (const copy of COPIES.filter((c) => c.file === file)) {
      if (!copy.pattern.test(after)) throw new Error(`${file}: no ${copy.pattern} to write into`);
      after = after.replace(copy.pattern, () => copy.write(types, events));
    }
    return { file, before, after };
  });
}

if (import.meta.main) {
  for (const { file, before, after } of renderCopies()) {
    if (before === after) continue;
    writeFileSync(join(ROOT, file), after);
    console.log(`wrote ${file}`);
  }
}
