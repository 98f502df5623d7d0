import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXEMPT, ISOLATION_TESTS } from "./registry.ts";
import { organizationQuerySites } from "./scan.ts";

/**
 * Keeps tests/isolation/registry.ts in step with the code: every Drizzle query on a table of
 * organization data must name a two-organization test that covers it.
 */
const sites = organizationQuerySites();

test("the scan finds the query sites (a broken scanner would make the registry check vacuous)", () => {
  expect(sites.length).toBeGreaterThan(40);
  expect(sites.map((s) => s.id)).toContain("src/outbox/outbox.ts#recordEvent");
  expect(sites.map((s) => s.id)).toContain("src/modules/alerts/queries.ts#alertIdsByExternalKey");
});

test("every query on organization data has a tenant isolation test", () => {
  const missing = sites.filter((site) => !(site.id in ISOLATION_TESTS) && !(site.id in EXEMPT));
  const advice = missing.map(
    (site) =>
      `${site.id} queries ${site.tables.join(", ")}: add a test in tests/isolation/*.test.ts where ` +
      `organization B uses this code and organization A's rows stay untouched ` +
      `(expectUntouched), then map "${site.id}" to "<file> > <test name>" in tests/isolation/registry.ts`,
  );
  expect(advice, advice.join("\n")).toEqual([]);
});

test("the registry names no site that no longer exists", () => {
  const ids = new Set(sites.map((s) => s.id));
  const stale = [...Object.keys(ISOLATION_TESTS), ...Object.keys(EXEMPT)].filter(
    (id) => !ids.has(id),
  );
  expect(stale, `remove or rename in tests/isolation/registry.ts: ${stale.join(", ")}`).toEqual([]);
});

test("every test the registry names exists in its file", () => {
  const absent = [...new Set(Object.values(ISOLATION_TESTS))].filter((entry) => {
    const [file, name] = entry.split(" > ", 2) as [string, string];
    const text = readFileSync(join(import.meta.dir, file), "utf8");
    return (
      !text.includes(`test(\n    ${JSON.stringify(name)},`) &&
      !text.includes(`test(${JSON.stringify(name)},`)
    );
  });
  expect(absent, `named in the registry but not found: ${absent.join("\n")}`).toEqual([]);
});
