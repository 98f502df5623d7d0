// A StrykerJS ignorer plugin: the mutants listed in equivalent-mutants.json are ignored exactly
// as a `// Stryker disable next-line <mutators>: <reason>` comment above their line would
// ignore them (those mutators, on that line only), without the comment in shipped code.
// Stryker reads such directives from a node's leading comments as it walks a file; this
// ignorer, called with the file's Program node before anything inside it is walked, gives the
// first node of each listed line that directive. It never ignores a node itself.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { declareClassPlugin, PluginKind } from "@stryker-mutator/api/plugin";

const TABLE = JSON.parse(readFileSync(new URL("./equivalent-mutants.json", import.meta.url)));

const FILES = [...new Set(TABLE.entries.map((e) => e.file))].map((path) => ({
  path,
  text: readFileSync(resolve(path), "utf8"),
}));

/** A listed file's entries: [{ line number, directive text }], each line found by its text. */
function directivesOf(file) {
  const lines = file.text.split("\n");
  return TABLE.entries
    .filter((entry) => entry.file === file.path)
    .map((entry) => {
      const found = lines.flatMap((text, i) => (text.trim() === entry.line ? [i + 1] : []));
      if (found.length !== 1) {
        throw new Error(`${file.path}: "${entry.line}" found ${found.length} times, expected once`);
      }
      return {
        line: found[0],
        text: ` Stryker disable next-line ${entry.mutators.join(",")}: ${entry.reason}`,
      };
    });
}

class EquivalentMutants {
  shouldIgnore(path) {
    if (!path.isProgram()) return undefined;
    // Stryker's parse carries no file name: a listed file is recognised by its exact text
    for (const file of FILES) {
      if (
        path.node.end !== file.text.length ||
        path.node.loc?.end.line !== file.text.split("\n").length
      )
        continue;
      const pending = new Map(directivesOf(file).map((d) => [d.line, d.text]));
      path.traverse({
        enter(inner) {
          const loc = inner.node.loc;
          const text = pending.get(loc?.start.line);
          if (text === undefined) return;
          pending.delete(loc.start.line);
          inner.node.leadingComments = [
            ...(inner.node.leadingComments ?? []),
            { type: "CommentLine", value: text, loc: { start: loc.start, end: loc.start } },
          ];
        },
      });
    }
    return undefined;
  }
}

export const strykerPlugins = [
  declareClassPlugin(PluginKind.Ignore, "equivalent-mutants", EquivalentMutants),
];
