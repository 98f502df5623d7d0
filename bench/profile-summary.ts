/**
 * Self samples of a `bun --cpu-prof-md` profile grouped by where the code lives (graphql-js,
 * Drizzle, postgres.js, the access log, …), as shares of all samples. Samples, not the
 * profile's times: on a busy machine one sample can carry a long stall of the process.
 *
 *   bun run bench/profile-summary.ts bench/profiles/CPU.….md [more.md …]
 */
import { readFileSync } from "node:fs";

const GROUPS: [string, RegExp][] = [
  ["graphql-js execute", /node_modules\/graphql\//],
  ["graphql-jit", /node_modules\/graphql-jit\//],
  ["drizzle-orm", /node_modules\/drizzle-orm\//],
  ["postgres.js", /node_modules\/postgres\//],
  ["dataloader", /node_modules\/dataloader\//],
  ["ipaddr.js", /node_modules\/ipaddr\.js\//],
  ["elysia", /node_modules\/elysia\//],
  ["src/limits", /\/src\/limits\//],
  ["src/http (context, auth)", /\/src\/http\//],
  ["src/auth", /\/src\/auth\//],
  ["src/graphql", /\/src\/graphql\//],
  ["src/modules", /\/src\/modules\//],
  ["src/logger", /\/src\/logger\.ts/],
  ["JSON.stringify", /^stringify \[native/],
  ["console.log / write", /^(log|writeBuffered|_write|write) \[native/],
];

for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, "utf8");
  const details = text.slice(text.indexOf("## Function Details"));
  const entry = /### `(.+?)`\n`(.+?)` \| Self: [^|]+\| Total: [^|]+\| Samples: (\d+)/g;
  const totals = new Map<string, number>();
  let all = 0;
  for (const match of details.matchAll(entry)) {
    const [, name, where, samples] = match as unknown as [string, string, string, string];
    const n = Number(samples);
    all += n;
    const key = `${name} ${where}`;
    const group = GROUPS.find(([, pattern]) => pattern.test(where) || pattern.test(key));
    const label = group ? group[0] : "other";
    totals.set(label, (totals.get(label) ?? 0) + n);
  }
  console.log(`${file}: ${all} samples`);
  for (const [label, n] of [...totals].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${label.padEnd(28)} ${((n / all) * 100).toFixed(1).padStart(5)} %`);
  }
}
