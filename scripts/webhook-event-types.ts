/**
 * `npm run events:generate`: writes the webhook event types the features declare
 * (src/features.ts, WEBHOOK_EVENT_TYPES) into the copies outside TypeScript's reach: the SDL's
 * descriptions (schema/webhooks.graphql) and the two clients' `WebhookEventType`.
 * tests/unit/webhook-event-copies.test.ts fails while a copy is out of date.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { WEBHOOK_EVENT_TYPES } from "../src/features.ts";

const ROOT = join(import.meta.dir, "..");

interface Copy {
  file: string;
  /** the text the list is written into; the whole match is replaced */
  pattern: RegExp;
  write(types: readonly string[]): string;
}

const quoted = (types: readonly string[]) => types.map((type) => `"${type}"`);

/** Biome's layout of a union of string literals: one line when it fits in 100 columns. */
function typescriptUnion(types: readonly string[]): string {
  const line = `export type WebhookEventType = ${quoted(types).join(" | ")};`;
  if (line.length <= 100) return line;
  return `export type WebhookEventType =\n${quoted(types)
    .map((type) => `  | ${type}`)
    .join("\n")};`;
}

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
    file: "clients/typescript/src/models.ts",
    pattern: /export type WebhookEventType =[^;]*;/,
    write: typescriptUnion,
  },
  {
    file: "clients/python/orgit/models.py",
    pattern: /WebhookEventType = Literal\[[^\]]*\]/,
    write: pythonLiteral,
  },
];

/** Each file with its copies written from `types`: `{ file, before, after }`. */
export function renderCopies(types: readonly string[] = WEBHOOK_EVENT_TYPES) {
  const files = [...new Set(COPIES.map((copy) => copy.file))];
  return files.map((file) => {
    const before = readFileSync(join(ROOT, file), "utf8");
    let after = before;
    for (const copy of COPIES.filter((c) => c.file === file)) {
      if (!copy.pattern.test(after)) throw new Error(`${file}: no ${copy.pattern} to write into`);
      after = after.replace(copy.pattern, copy.write(types));
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
