import { expect, test } from "bun:test";
import {
  arrowId,
  cycles,
  FLOORS,
  fileGraph,
  floorOf,
  folderGraph,
  folderUpArrows,
  importsOf,
  longFiles,
  MAX_LINES,
  sourceFiles,
  upArrows,
} from "../helpers/architecture.ts";

/**
 * src/ stays in its floors (docs/architecture.md): entry → features → adapters → http →
 * graphql and resolvers → services and the outbox → limits and auth → queries and db → base.
 * An import may go down or stay on its floor, never back up; no files and no folders import
 * each other in a circle; and no file grows past MAX_LINES.
 */
const files = sourceFiles();

test("the floors check sees the code (a broken resolver would make it vacuous)", () => {
  expect(files.length, "files under src/").toBeGreaterThan(50);
  expect(importsOf("src/app.ts").length, "src/app.ts imports").toBeGreaterThan(10);
  expect(floorOf("src/modules/tickets/rest.ts")).toBeLessThan(
    floorOf("src/modules/tickets/queries.ts") as number,
  );
});

test("every file in src/ sits on a floor", () => {
  const unplaced = files.filter((file) => floorOf(file) === undefined);
  const floors = FLOORS.map((f) => f.name).join(" → ");
  expect(unplaced, `place these in tests/helpers/architecture.ts (${floors})`).toEqual([]);
});

test("no import runs back up a floor", () => {
  const found = upArrows(files).map((a) => `${arrowId(a)}   (${a.floors})`);
  expect(found, "imports back up a floor (docs/architecture.md)").toEqual([]);
});

test("src/http holds the transport; the OpenAPI document is built in src/openapi", () => {
  const found = files.filter((file) => /^src\/http\/.*openapi/i.test(file));
  expect(found, "move OpenAPI document code to src/openapi/").toEqual([]);
  expect(files.filter((file) => file.startsWith("src/openapi/")).length).toBeGreaterThan(2);
});

test(`no file in src/ exceeds ${MAX_LINES} lines (generated files excepted)`, () => {
  const long = longFiles(files).map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(long, "split these files").toEqual([]);
});

test("no files import each other in a circle (type-only imports too)", () => {
  const found = cycles(fileGraph(files)).map((group) => group.join(" ↔ "));
  expect(found, "import circles: move the shared part down a file, or merge the two").toEqual([]);
});

test("drawn by folders, no folder imports a folder above it", () => {
  const found = folderUpArrows(files).map((a) => `${arrowId(a)}   (${a.floors})`);
  expect(found, "folders importing a folder whose top file is on a higher floor").toEqual([]);
});

test("drawn by folders, no folders import each other in a circle", () => {
  const graph = folderGraph(files);
  expect(graph.size, "folders and src/ files drawn").toBeGreaterThan(20);
  const found = cycles(graph).map((group) => group.join(" ↔ "));
  expect(found, "folder circles: move the shared type down to a folder both may use").toEqual([]);
});

test("the circle check finds a circle (so an empty answer means none)", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a"]],
    ["d", ["a"]],
  ]);
  expect(cycles(graph)).toEqual([["a", "b", "c"]]);
});
