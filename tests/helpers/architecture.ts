/**
 * The floors of src/ (docs/architecture.md) and the import graph checked against them, for
 * tests/unit/architecture.test.ts and scripts/architecture-figures.ts. A file may import from
 * its own floor or any floor below; an import that runs back up a floor (type-only ones too)
 * is an up-arrow.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export const ROOT = join(import.meta.dir, "../..");
const SRC = join(ROOT, "src");

/** Longest a file in src/ may be, in lines. */
export const MAX_LINES = 250;

/** Files written by a generator (e.g. GraphQL Code Generator), exempt from MAX_LINES. */
export const GENERATED = /(^|\/)(generated|[^/]*\.generated|[^/]*\.gen)(\/|\.ts$)/;

/** Top to bottom; each floor is a list of path patterns relative to the repository root. */
export const FLOORS: { name: string; patterns: RegExp[] }[] = [
  {
    name: "entry",
    patterns: [/^src\/(index|deno|boot|app)\.ts$/, /^src\/cli\//, /^src\/demo\//],
  },
  // a module's models.ts is its routes' typebox schemas: part of the REST adapter
  {
    name: "adapters",
    patterns: [/^src\/modules\/[^/]+\/(rest|models)\.ts$/, /^src\/pages\//],
  },
  { name: "http", patterns: [/^src\/http\//] },
  // the Services bag is what resolvers reach through the GraphQL context; app.ts builds it
  {
    name: "graphql",
    patterns: [
      /^src\/services\.ts$/,
      /^src\/graphql\/(?!generated\.ts$|enums\.ts$)/,
      /^src\/modules\/[^/]+\/resolvers\.ts$/,
    ],
  },
  // every other module file (rest, models and resolvers matched above, queries below)
  { name: "services", patterns: [/^src\/modules\/[^/]+\/(?!queries\.ts$)/, /^src\/outbox\//] },
  { name: "limits, auth", patterns: [/^src\/limits\//, /^src\/auth\//] },
  { name: "queries, db", patterns: [/^src\/modules\/[^/]+\/queries\.ts$/, /^src\/db\//] },
  {
    name: "base",
    patterns: [
      /^src\/(config|errors|logger|validation|input-safety)\.ts$/,
      // generated from schema/*.graphql (types, documents, the SDL's enums): imports nothing
      // from src, so Drizzle's pgEnum and the REST schemas can take the SDL's enum values
      /^src\/graphql\/(generated|enums)\.ts$/,
    ],
  },
];

/** The floor index of a repository-relative path (0 = entry), or undefined when unplaced. */
export function floorOf(file: string): number | undefined {
  const index = FLOORS.findIndex((floor) => floor.patterns.some((p) => p.test(file)));
  return index === -1 ? undefined : index;
}

/** Every .ts file under src/, repository-relative, sorted. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith(".ts") ? [relative(ROOT, path)] : [];
    })
    .sort();
}

export function lineCount(file: string): number {
  const text = readFileSync(join(ROOT, file), "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** A relative specifier resolved to a repository-relative .ts file, or undefined. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined; // a package
  const base = resolve(ROOT, dirname(from), specifier);
  const candidates = [base, `${base}.ts`, join(base, "index.ts")];
  const found = candidates.find((c) => c.endsWith(".ts") && existsSync(c) && statSync(c).isFile());
  return found === undefined ? undefined : relative(ROOT, found);
}

/**
 * The src/ files `file` imports: `import`, `import type`, `export … from` and `import()`,
 * as the TypeScript compiler's pre-processor finds them.
 */
export function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), "utf8"), true, true);
  const targets = info.importedFiles
    .map((ref) => resolveImport(file, ref.fileName))
    .filter((target): target is string => target?.startsWith("src/") ?? false);
  return [...new Set(targets)].sort();
}

export interface Arrow {
  from: string;
  to: string;
  /** "http → graphql" style, floor names */
  floors: string;
}

/** Every import from a file to a file on a higher floor. */
export function upArrows(files = sourceFiles()): Arrow[] {
  const arrows: Arrow[] = [];
  for (const from of files) {
    const fromFloor = floorOf(from);
    if (fromFloor === undefined) continue;
    for (const to of importsOf(from)) {
      const toFloor = floorOf(to);
      if (toFloor !== undefined && toFloor < fromFloor) {
        arrows.push({ from, to, floors: `${FLOORS[fromFloor]?.name} → ${FLOORS[toFloor]?.name}` });
      }
    }
  }
  return arrows;
}

/** `from -> to`, the form ALLOWED lists use. */
export const arrowId = (arrow: Arrow) => `${arrow.from} -> ${arrow.to}`;

/** Files in src/ over MAX_LINES, generated ones excepted. */
export function longFiles(files = sourceFiles()): { file: string; lines: number }[] {
  return files
    .filter((file) => !GENERATED.test(file))
    .map((file) => ({ file, lines: lineCount(file) }))
    .filter(({ lines }) => lines > MAX_LINES);
}
