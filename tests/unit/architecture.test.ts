import { expect, test } from "bun:test";
import {
  arrowId,
  FLOORS,
  floorOf,
  importsOf,
  longFiles,
  MAX_LINES,
  sourceFiles,
  upArrows,
} from "../helpers/architecture.ts";

/**
 * src/ stays in its floors (docs/architecture.md): entry → adapters → http → graphql and
 * resolvers → services and the outbox → limits and auth → queries and db → base. An import
 * may go down or stay on its floor, never back up, and no file grows past MAX_LINES.
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

test(`no file in src/ exceeds ${MAX_LINES} lines (generated files excepted)`, () => {
  const long = longFiles(files).map(({ file, lines }) => `${file}: ${lines} lines`);
  expect(long, "split these files").toEqual([]);
});
