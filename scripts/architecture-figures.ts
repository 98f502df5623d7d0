/**
 * Before/after figures for the layout of src/ (issue 15): lines in src/http, imports that run
 * back up a floor, files over the line limit, and files and lines per folder.
 * `bun run scripts/architecture-figures.ts`
 */
import {
  arrowId,
  lineCount,
  longFiles,
  MAX_LINES,
  sourceFiles,
  upArrows,
} from "../tests/helpers/architecture.ts";

const files = sourceFiles();
const folderOf = (file: string) => {
  const parts = file.split("/");
  if (parts.length === 2) return "src/*.ts";
  return parts[1] === "modules" && parts.length > 3 ? `src/modules/${parts[2]}` : `src/${parts[1]}`;
};

const folders = new Map<string, { files: number; lines: number }>();
for (const file of files) {
  const entry = folders.get(folderOf(file)) ?? { files: 0, lines: 0 };
  entry.files += 1;
  entry.lines += lineCount(file);
  folders.set(folderOf(file), entry);
}
const http = folders.get("src/http") ?? { files: 0, lines: 0 };
const arrows = upArrows(files);
const long = longFiles(files);

console.log(`src: ${files.length} files`);
console.log(`src/http: ${http.files} files, ${http.lines} lines`);
console.log(`up-arrows: ${arrows.length}`);
for (const arrow of arrows) console.log(`  ${arrowId(arrow)}   (${arrow.floors})`);
console.log(`files over ${MAX_LINES} lines: ${long.length}`);
for (const { file, lines } of long) console.log(`  ${file}: ${lines}`);
console.log("files and lines per folder:");
for (const [folder, { files: count, lines }] of [...folders].sort()) {
  console.log(
    `  ${folder.padEnd(28)} ${String(count).padStart(3)} files ${String(lines).padStart(6)} lines`,
  );
}
