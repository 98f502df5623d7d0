#!/usr/bin/env node
// `npx orgit <command> …`: the operator CLI (src/cli/main.ts) run by the Bun that `npm install`
// brought as a devDependency, so no global Bun is needed. Plain JavaScript for Node, because
// npx starts bin files with Node.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
let bun = process.env.ORGIT_BUN;
if (!bun) {
  try {
    const bunPackage = createRequire(join(root, "package.json")).resolve("bun/package.json");
    bun = join(dirname(bunPackage), "bin", "bun.exe"); // the npm package names it .exe everywhere
  } catch {
    bun = "bun"; // not installed with the project: a Bun on the PATH, if any
  }
}
const run = spawnSync(bun, [join(root, "src", "cli", "main.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
});
if (run.error) {
  console.error(`error: cannot start Bun (${run.error.message}); run \`npm install\` first`);
  process.exit(2);
}
process.exit(run.status ?? 1);
