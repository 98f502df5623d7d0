/**
 * `npm run test:mutation:org-filters`: the mutation StrykerJS cannot make. Its mutators leave
 * function calls alone, so deleting a Drizzle organization filter (`eq(t.organizationId, id)`)
 * is never tried, yet that is the one-line bug that would leak data between organizations.
 * This script deletes each filter in turn (replacing it with `undefined`, which Drizzle's
 * `and()` and `where()` skip), in a copy of the project, and runs the isolation suites: every
 * such mutant must make them fail.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
/** every source file but the table definitions and the demo seeding (tests/isolation/registry.ts) */
const FILES = [...new Bun.Glob("src/**/*.ts").scanSync(ROOT)]
  .filter((file) => !file.startsWith("src/db/schema/") && !file.startsWith("src/demo/"))
  .sort();
/**
 * The forms an organization filter takes, each with what deleting it leaves: a Drizzle
 * condition (`eq(t.organizationId, id)`, or the API-key filter that confines idempotency
 * records; `inArray(t.organizationId, ids)`) becomes `undefined`, which `and()` and `where()`
 * skip; an `and … organization_id = …` clause of raw SQL is cut out.
 */
const FILTERS: [RegExp, string][] = [
  [/eq\(\w+\.(?:organizationId|apiKeyId), [\w.]+\)/g, "undefined"],
  [/inArray\(\w+\.organizationId, [\w.]+\)/g, "undefined"],
  [/ and [\w".]+\.organization_id = [\w".]+/g, ""],
];
const TESTS = ["tests/isolation/"];

const sandbox = mkdtempSync(join(tmpdir(), "orgit-org-filters-"));
for (const entry of [
  "src",
  "tests",
  "schema",
  "drizzle",
  "package.json",
  "bunfig.toml",
  "tsconfig.json",
]) {
  cpSync(join(ROOT, entry), join(sandbox, entry), { recursive: true });
}
symlinkSync(join(ROOT, "node_modules"), join(sandbox, "node_modules"));

const results: { site: string; killed: boolean }[] = [];
try {
  for (const file of FILES) {
    const original = readFileSync(join(ROOT, file), "utf8");
    for (const [filter, replacement] of FILTERS) {
      for (const match of original.matchAll(filter)) {
        const line = original.slice(0, match.index).split("\n").length;
        const site = `${file}:${line} ${match[0].trim()}`;
        const mutated = `${original.slice(0, match.index)}${replacement}${original.slice(match.index + match[0].length)}`;
        writeFileSync(join(sandbox, file), mutated);
        const run = Bun.spawnSync(["node_modules/.bin/bun", "test", "--bail", ...TESTS], {
          cwd: sandbox,
          env: { ...process.env, TEST_DATABASE_URL: "" },
          stdout: "ignore",
          stderr: "ignore",
        });
        writeFileSync(join(sandbox, file), original);
        results.push({ site, killed: run.exitCode !== 0 });
        console.log(`${run.exitCode !== 0 ? "killed  " : "SURVIVED"} ${site}`);
      }
    }
  }
} finally {
  rmSync(sandbox, { recursive: true, force: true });
}
const survived = results.filter((r) => !r.killed);
console.log(
  `\norganization filters removed: ${results.length}, killed: ${results.length - survived.length}, survived: ${survived.length}`,
);
process.exit(survived.length === 0 && results.length > 0 ? 0 : 1);
