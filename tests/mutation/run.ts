/**
 * `npm run test:mutation [group…] [-- --incremental]`: one StrykerJS run per group of
 * tests/mutation/groups.json (all groups when none is named), one after another, so the shared
 * machine never runs more than MUTATION_CONCURRENCY (default 2) test processes at once.
 * Reports land in reports/mutation/<group>.json; with --incremental only mutants in changed
 * code (or whose tests changed) are run again.
 */
import groups from "./groups.json";

const GROUPS = Object.fromEntries(Object.entries(groups).filter(([name]) => name !== "//"));

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith("--"));
const named = args.filter((arg) => !arg.startsWith("--"));
const unknown = named.filter((name) => !(name in GROUPS));
if (unknown.length > 0) {
  console.error(`unknown mutation group ${unknown.join(", ")}; one of ${Object.keys(GROUPS)}`);
  process.exit(2);
}
let failed = false;
for (const group of named.length > 0 ? named : Object.keys(GROUPS)) {
  console.log(`\n==> mutation group ${group}`);
  const run = Bun.spawnSync(
    [
      "node",
      "node_modules/@stryker-mutator/core/bin/stryker.js",
      "run",
      "stryker.config.mjs",
      ...flags,
    ],
    { env: { ...process.env, MUTATION_GROUP: group }, stdout: "inherit", stderr: "inherit" },
  );
  if (run.exitCode !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
