// StrykerJS over the security-critical code (docs/testing.md). Bun runs the TypeScript, so the
// `command` runner drives `bun test` on the few test files that cover each group: one run per
// group (MUTATION_GROUP=<name>), because the command runner has no per-test coverage and a
// whole-suite run per mutant would take hours on a shared 2-core machine.
// `npm run test:mutation [group…] [-- --incremental]` runs the groups one after another
// (tests/mutation/run.ts); see docs/testing.md.
import { readFileSync } from "node:fs";

const GROUPS = JSON.parse(readFileSync(new URL("./tests/mutation/groups.json", import.meta.url)));

const name = process.env.MUTATION_GROUP ?? "token-bucket";
const group = name.startsWith("/") ? undefined : GROUPS[name];
if (!group) throw new Error(`MUTATION_GROUP ${name} is unknown; one of ${Object.keys(GROUPS)}`);

export default {
  $schema: "./node_modules/@stryker-mutator/core/schema/stryker-schema.json",
  packageManager: "npm",
  testRunner: "command",
  commandRunner: {
    // --bail: a killed mutant stops at its first failing test
    command: `node_modules/.bin/bun test --bail --timeout 30000 ${group.tests.join(" ")}`,
  },
  coverageAnalysis: "off",
  // equivalent mutants, listed in tests/mutation/equivalent-mutants.json (none in src)
  plugins: ["@stryker-mutator/*", "./tests/mutation/equivalent-mutants.mjs"],
  ignorers: ["equivalent-mutants"],
  mutate: group.mutate,
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 60_000,
  timeoutFactor: 2,
  // the sandbox needs src, schema (SDL), drizzle (migrations), tests and the configs
  ignorePatterns: ["clients", "bench", "docs", "reports", ".data", "test-artifacts", "coverage"],
  reporters: ["clear-text", "progress-append-only", "json"],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: "always",
};
