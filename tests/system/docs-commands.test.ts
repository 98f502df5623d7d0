import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, ROOT } from "../helpers/service-process.ts";

/**
 * Every shell block of README.md and docs/*.md marked ```` ```sh runnable ```` runs as written
 * against `npm run demo`'s service: the variables a reader fills in from the demo's banner
 * (`KEY`, `ADMIN_TOKEN`) come from the banner, the address is the test's own port instead of
 * 3000, and `curl` fails on an HTTP error (`--fail-with-body`), so a command that answers 4xx
 * fails the test instead of printing an error a reader would trip over. The demo's rate limits
 * are raised: a script sends a block's requests faster than a reader types them.
 */
const BUN = join(ROOT, "node_modules/.bin/bun");
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);

interface Block {
  file: string;
  line: number;
  text: string;
}

function runnableBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of DOCS) {
    const source = readFileSync(join(ROOT, file), "utf8");
    for (const match of source.matchAll(/^( *)```sh runnable\n([\s\S]*?)^\1```$/gm)) {
      const indent = match[1] as string;
      const text = (match[2] as string)
        .split("\n")
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
        .join("\n");
      blocks.push({ file, line: source.slice(0, match.index).split("\n").length, text });
    }
  }
  return blocks;
}

const blocks = runnableBlocks();
let demo: ReturnType<typeof Bun.spawn> | undefined;
let base = "";
let banner = "";
const env: Record<string, string> = {};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  demo = Bun.spawn([BUN, "run", "src/index.ts", "--demo"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      PORT: String(port),
      HOST: "127.0.0.1",
      // a block's requests follow each other within milliseconds, faster than a reader types:
      // the limits are raised so the per-second burst bucket does not refuse them
      RATE_LIMIT_BURST_PER_SEC: "10000",
      RATE_LIMIT_KEY_PER_MIN: "100000",
      RATE_LIMIT_IP_PER_MIN: "100000",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = (demo.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 90_000;
  while (!/sign in {6}:/.test(banner) && Date.now() < deadline) {
    const { done, value } = await reader.read();
    if (done) break;
    banner += decoder.decode(value, { stream: true });
  }
  void (async () => {
    for (;;) if ((await reader.read()).done) break; // keep draining so the child never blocks
  })();
  const key = banner.match(/API key {6}: (orgit_\S+)/)?.[1];
  const token = banner.match(/admin token {2}: (\S+)/)?.[1];
  if (!key || !token) throw new Error(`the demo did not print its banner:\n${banner}`);
  Object.assign(env, {
    PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH ?? ""}`,
    HOME: process.env.HOME ?? "/tmp",
    KEY: key,
    ADMIN_TOKEN: token,
    ORGIT_URL: base,
  });
}, 120_000);

afterAll(async () => {
  demo?.kill("SIGTERM");
  await demo?.exited;
});

describe("shell blocks of the docs marked runnable", () => {
  test("there are runnable blocks in the README and in docs/", () => {
    expect(blocks.some((b) => b.file === "README.md")).toBe(true);
    expect(blocks.some((b) => b.file.startsWith("docs/"))).toBe(true);
  });

  for (const block of blocks) {
    test(`${block.file}:${block.line} runs against the demo`, () => {
      const script = [
        "set -euo pipefail",
        'curl() { command curl --fail-with-body -sS "$@"; echo; }',
        block.text.replaceAll("http://127.0.0.1:3000", base),
      ].join("\n");
      const run = Bun.spawnSync(["bash", "-c", script], {
        cwd: ROOT,
        env,
        stdout: "pipe",
        stderr: "pipe",
        timeout: 90_000,
      });
      const output = `${run.stdout.toString()}\n${run.stderr.toString()}`;
      expect(
        run.exitCode,
        `${block.file}:${block.line} failed:\n${block.text}\n--- output ---\n${output}`,
      ).toBe(0);
    }, 120_000);
  }
});
