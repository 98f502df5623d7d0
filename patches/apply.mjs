// Applies patches/*.patch with patch-package (the postinstall script; the Dockerfile runs it too).
//
// Bun installs packages as hard links into its global cache (~/.bun/install/cache) and
// patch-package rewrites files in place, so patching the link would patch the cache, and with
// it every other project on the machine that installs the same version. Each file a patch
// touches is therefore given an inode of its own first. npm copies files: nothing to do there.
// Runs under Node (npm install) and Bun (bun install, Docker) alike.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const patchesDir = join(root, "patches");

for (const name of readdirSync(patchesDir).filter((file) => file.endsWith(".patch"))) {
  const text = readFileSync(join(patchesDir, name), "utf8");
  for (const match of text.matchAll(/^\+\+\+ b\/(node_modules\/\S+)$/gm)) {
    const path = join(root, match[1]);
    if (!existsSync(path) || statSync(path).nlink < 2) continue;
    const copy = `${path}.unlinked`;
    copyFileSync(path, copy);
    renameSync(copy, path);
  }
}

const result = spawnSync(
  process.execPath,
  [join(root, "node_modules/patch-package/index.js"), "--error-on-fail"],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
