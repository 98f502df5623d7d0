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
    patterns: [/^src\/(index|deno|boot|app|shutdown)\.ts$/, /^src\/cli\//, /^src\/demo\//],
  },
  // the one list of features, each feature's declaration (index.ts) and what declares it
  {
    name: "features",
    patterns: [
      /^src\/features\.ts$/,
      /^src\/modules\/feature\.ts$/,
      /^src\/modules\/[^/]+\/index\.ts$/,
    ],
  },
  // a module's models.ts is its routes' typebox schemas: part of the REST adapter
  {
    name: "adapters",
    patterns: [/^src\/modules\/[^/]+\/(rest|models)\.ts$/, /^src\/pages\//],
  },
  { name: "http", patterns: [/^src\/http\//] },
  // the OpenAPI document built from the routes (src/http/api-docs.ts serves it) and the names
  // the features give it
  { name: "openapi", patterns: [/^src\/openapi\//] },
  // the infrastructure and the domain services' types, which the GraphQL context carries
  {
    name: "graphql",
    patterns: [/^src\/services\.ts$/, /^src\/graphql\//, /^src\/modules\/[^/]+\/resolvers\.ts$/],
  },
  // every other module file (index, rest, models and resolvers matched above, queries below)
  { name: "services", patterns: [/^src\/modules\/[^/]+\/(?!queries\.ts$)/, /^src\/outbox\//] },
  { name: "limits, auth", patterns: [/^src\/limits\//, /^src\/auth\//] },
  { name: "queries, db", patterns: [/^src\/modules\/[^/]+\/queries\.ts$/, /^src\/db\//] },
  {
    name: "base",
    patterns: [
      /^src\/(config|errors|logger|validation|input-safety|enums)\.ts$/,
      // generated from schema/*.graphql and the operations (types, documents, the SDL's
      // enums): imports nothing from src, so Drizzle's pgEnum and the REST schemas can take
      // the SDL's enum values
      /^src\/generated\//,
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

/**
 * The import circles among `files`: each strongly connected group of two or more files (or a
 * file importing itself), its members sorted, the groups sorted (Tarjan's algorithm).
 */
export function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** The file import graph of src/ (type-only imports included). */
export function fileGraph(files = sourceFiles()): Map<string, string[]> {
  return new Map(files.map((file) => [file, importsOf(file)]));
}

/**
 * The box a file belongs to when the imports are drawn by folders: a feature's folder
 * (`src/modules/tickets`), a folder under src (`src/db`, schema/ and queries/ included), or
 * the file itself for the files directly in src/ (entry points and the base are not a folder).
 */
export function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts.length === 2) return file;
  if (parts[1] === "modules" && parts.length > 3) return parts.slice(0, 3).join("/");
  return parts.slice(0, 2).join("/");
}

/** The folder graph: an edge wherever a file of one folder imports a file of another. */
export function folderGraph(files = sourceFiles()): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const from of files) {
    const edges = graph.get(folderOf(from)) ?? new Set<string>();
    graph.set(folderOf(from), edges);
    for (const to of importsOf(from)) if (folderOf(to) !== folderOf(from)) edges.add(folderOf(to));
  }
  return new Map([...graph].map(([folder, edges]) => [folder, [...edges].sort()]));
}

/** A folder's floor: the highest floor of its files (a folder is as high as its top file). */
export function folderFloor(folder: string, files = sourceFiles()): number | undefined {
  const floors = files
    .filter((file) => folderOf(file) === folder)
    .map((file) => floorOf(file))
    .filter((floor): floor is number => floor !== undefined);
  return floors.length === 0 ? undefined : Math.min(...floors);
}

/** Every folder-to-folder import that runs up: to a folder whose top floor is above the importer's. */
export function folderUpArrows(files = sourceFiles()): Arrow[] {
  const arrows: Arrow[] = [];
  for (const [from, targets] of folderGraph(files)) {
    const fromFloor = folderFloor(from, files);
    if (fromFloor === undefined) continue;
    for (const to of targets) {
      const toFloor = folderFloor(to, files);
      if (toFloor !== undefined && toFloor < fromFloor) {
        arrows.push({ from, to, floors: `${FLOORS[fromFloor]?.name} → ${FLOORS[toFloor]?.name}` });
      }
    }
  }
  return arrows;
}
