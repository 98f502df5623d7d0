import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { startServiceProcess } from "../helpers/service-process.ts";

/**
 * `npm start` is the production command of docs/deploying.md: a SIGTERM to it (what a process
 * manager sends) must reach the service itself, which shuts down and frees its port, instead of
 * stopping npm's shell and leaving the service running with no parent. It also sets the
 * allocator's purge delay (docs/decisions.md §39) unless the operator set one.
 */

/** every process below `pid`, read from ps (so a failed run can still clean up after itself) */
function descendants(pid: number): number[] {
  const table = Bun.spawnSync(["ps", "-e", "-o", "pid=,ppid="]).stdout.toString();
  const children = new Map<number, number[]>();
  for (const line of table.trim().split("\n")) {
    const [child, parent] = line.trim().split(/\s+/).map(Number) as [number, number];
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      found.push(c);
      walk(c);
    }
  };
  walk(pid);
  return found;
}

/** the environment of the process below `pid` that runs src/index.ts: the service itself */
function serviceEnvironment(pid: number): Map<string, string> {
  for (const child of descendants(pid)) {
    if (!readFileSync(`/proc/${child}/cmdline`, "utf8").includes("src/index.ts")) continue;
    const pairs = readFileSync(`/proc/${child}/environ`, "utf8").split("\0").filter(Boolean);
    return new Map(
      pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
    );
  }
  throw new Error(`no process below ${pid} runs src/index.ts`);
}

test("SIGTERM to `npm start` shuts the service down and closes its port", async () => {
  const service = await startServiceProcess({
    command: ["npm", "start", "--silent"],
    adminToken: "npm-start-operator-token-0123",
    startTimeoutMs: 60_000,
    label: "npm start",
  });
  const below = descendants(service.pid);
  try {
    expect((await fetch(`${service.base}/livez`)).status).toBe(200);
    await service.stop();
    const after = await fetch(`${service.base}/livez`).then(
      (r) => `answered ${r.status}`,
      () => "closed",
    );
    expect(after, `the port must be closed once npm has exited${service.output()}`).toBe("closed");
    expect(service.output(), "the service logged its graceful shutdown").toContain("shutting down");
  } finally {
    for (const pid of below) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone, as it should be
      }
    }
  }
}, 90_000);

test("`npm start` runs the service with the allocator's purge delay off, unless the operator set one", async () => {
  for (const [given, expected] of [
    [undefined, "-1"],
    ["250", "250"],
  ] as const) {
    const service = await startServiceProcess({
      command: ["npm", "start", "--silent"],
      adminToken: "npm-start-operator-token-0123",
      startTimeoutMs: 60_000,
      label: "npm start",
      env: given === undefined ? {} : { MIMALLOC_PURGE_DELAY: given },
    });
    try {
      expect(
        serviceEnvironment(service.pid).get("MIMALLOC_PURGE_DELAY"),
        `MIMALLOC_PURGE_DELAY ${given ?? "unset"} in npm's environment`,
      ).toBe(expected);
    } finally {
      await service.stop();
    }
  }
}, 120_000);
